package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tenant that fills its sandbox's process table (see {@link #ATTACKS}) must neither keep another session's new
 * sandbox from starting nor leave its own sandbox unable to start a shell. Twenty rounds in a row on each backend:
 * how fast a full sandbox empties and a new shell starts varies from run to run.
 */
class NoisyNeighbourIT {
    private static final int ROUNDS = 20;
    /** How soon the neighbour must have a working shell: a functional bound, not a benchmark. */
    private static final Duration NEIGHBOUR_BOUND = Duration.ofSeconds(5);
    private static final Duration ATTACKER_BOUND = Duration.ofSeconds(15);
    /**
     * The two ways to fill a sandbox, taken in turns. Both end the attacker's shell: dash gives up when a fork
     * fails. With a pids limit that happens within a second or two; without one the time-out would end it.
     * <ul>
     *   <li>a fork bomb left running in the background, then processes started until a fork fails: the table stays
     *       full but churns, as processes of the bomb die and are replaced;</li>
     *   <li>sleeping processes started until a fork fails: the table stays full and nothing in it ever ends (the
     *       escape corpus's "more processes than the pids limit").</li>
     * </ul>
     */
    private static final List<String> ATTACKS = List.of(
            "b() { b | b & }; b; while :; do sleep 60 & done",
            "while :; do sleep 60 & done");

    @TempDir
    Path root;

    @ParameterizedTest
    @ValueSource(strings = {BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER})
    void a_session_that_fills_its_process_table_keeps_neither_a_new_neighbour_nor_itself_from_a_shell(
            String backend) throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        BackendsUnderTest.requireProcessLimit(backend, sandboxes);

        for (int round = 1; round <= ROUNDS; round++) {
            SandboxSpec attacker = spec("mallory", "attack-" + round);
            SandboxSpec neighbour = spec("nina", "next-" + round);
            try {
                sandboxes.acquire(attacker).shell(ATTACKS.get(round % ATTACKS.size()), Duration.ofSeconds(20), null);

                long neighbourDeadline = System.nanoTime() + NEIGHBOUR_BOUND.toNanos();
                CommandResult neighbourSays = sandboxes.acquire(neighbour).shell("echo ok", NEIGHBOUR_BOUND, null);
                long neighbourDone = System.nanoTime();
                long attackerDeadline = System.nanoTime() + ATTACKER_BOUND.toNanos();
                CommandResult attackerSays = sandboxes.acquire(attacker).shell("echo ok", ATTACKER_BOUND, null);
                long attackerDone = System.nanoTime();

                assertThat(neighbourSays.output()).as("round %d: the neighbour's shell", round).isEqualTo("ok\n");
                assertThat(neighbourDone).as("round %d: the neighbour's shell answered within %s", round,
                        NEIGHBOUR_BOUND).isLessThan(neighbourDeadline);
                assertThat(attackerSays.output()).as("round %d: the attacker's own shell", round).isEqualTo("ok\n");
                assertThat(attackerDone).as("round %d: the attacker's shell answered within %s", round,
                        ATTACKER_BOUND).isLessThan(attackerDeadline);
            } finally {
                sandboxes.release(attacker);
                sandboxes.release(neighbour);
            }
        }
    }

    private SandboxSpec spec(String user, String session) throws Exception {
        return new SandboxSpec(user, session, Files.createDirectories(root.resolve(user).resolve(session)), null);
    }
}
