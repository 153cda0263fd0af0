package dev.agentbus.bench.soak;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Given what a soak left behind, when it is reconciled, then each kind of fault is counted, and only that. */
class ReconciliationTest {
    static final String SHELL_7 = "{\"command\":\"echo 7 >> soak.log\"}";

    static EventEnvelope at(long seq, SessionEvent event) {
        return new EventEnvelope("e" + seq, "s1", seq, Instant.EPOCH, null, "local", event);
    }

    /** A clean session: a message, one shell step that ran once, and its result. */
    static List<EventEnvelope> cleanLog() {
        return new ArrayList<>(List.of(
                at(1, new SessionEvent.SessionCreated("soak")),
                at(2, new SessionEvent.UserMessagePosted("keep going")),
                at(3, new SessionEvent.ToolCallRequested("c1", "shell", SHELL_7)),
                at(4, new SessionEvent.ToolCallCompleted("c1", true, "", null, null, false, 1, false))));
    }

    static Reconciliation reconcile(List<EventEnvelope> log, int sent, List<String> soakLog, long readModelSeq) {
        return Reconciliation.of(Map.of("s1", log), Map.of("s1", sent), Map.of("s1", soakLog),
                Map.of("s1", readModelSeq));
    }

    @Test
    void a_clean_run_counts_nothing() {
        assertThat(reconcile(cleanLog(), 1, List.of("7"), 4).clean()).isTrue();
    }

    @Test
    void a_gap_and_a_repeat_in_the_seq_are_counted() {
        List<EventEnvelope> log = cleanLog();
        log.remove(1); // seq 2 lost
        log.add(at(4, new SessionEvent.TurnEnded(dev.agentbus.events.session.TurnOutcome.COMPLETED, "x", null)));

        Reconciliation r = reconcile(log, 0, List.of("7"), 4);

        assertThat(r.seqGaps()).isEqualTo(1);
        assertThat(r.seqRepeats()).isEqualTo(1);
    }

    @Test
    void a_request_without_a_result_and_a_message_not_in_the_log_are_counted() {
        List<EventEnvelope> log = cleanLog();
        log.removeLast();

        Reconciliation r = reconcile(log, 2, List.of("7"), 3);

        assertThat(r.requestsWithoutOneResult()).isEqualTo(1);
        assertThat(r.messagesMissing()).isEqualTo(1);
        assertThat(r.commandsRunUnrecorded()).isEqualTo(1); // it ran (the workspace says so), but has no result
    }

    @Test
    void a_command_the_workspace_shows_twice_ran_twice_and_one_it_never_shows_never_ran() {
        assertThat(reconcile(cleanLog(), 1, List.of("7", "7"), 4).commandsRunTwice()).isEqualTo(1);
        assertThat(reconcile(cleanLog(), 1, List.of(), 4).resultsNotRun()).isEqualTo(1);
    }

    @Test
    void a_read_model_behind_the_log_is_counted() {
        assertThat(reconcile(cleanLog(), 1, List.of("7"), 3).readModelsBehind()).isEqualTo(1);
    }
}
