package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Real providers for the backend tests. Docker may be absent on a developer's machine: such a test is skipped
 * there, but under {@code CI=true} a missing engine or image fails it (a sandbox that silently is not tested is
 * worse than a red build). Bubblewrap is never skipped.
 */
public final class BackendsUnderTest {
    public static final String DOCKER = "docker";
    public static final String BUBBLEWRAP = "bubblewrap";

    /** One provider per backend for the whole test run: containers are slow enough to start once. */
    private static final Map<String, Sandboxes> SHARED = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> SHARED.values().forEach(Sandboxes::close)));
    }

    private static final AtomicInteger FRESH = new AtomicInteger();

    private BackendsUnderTest() {
    }

    /**
     * Each provider its own worker id: a provider removes the containers its worker id left, and must not take
     * another live provider's (in this JVM or a parallel test run) for leftovers.
     */
    private static String workerId(String name) {
        return "tests-" + ProcessHandle.current().pid() + "-" + name;
    }

    /** The shared provider of {@code backend}, skipping or failing (see class comment) when it cannot run. */
    public static Sandboxes shared(String backend) {
        Sandboxes sandboxes = SHARED.computeIfAbsent(backend, b -> create(b, c -> c.withWorkerId(workerId(b))));
        requireAvailable(backend, sandboxes);
        return sandboxes;
    }

    /** A provider of its own (the caller closes it), configured further by {@code tweak}. */
    public static Sandboxes fresh(String backend, UnaryOperator<SandboxConfig> tweak) {
        String id = workerId("fresh-" + FRESH.incrementAndGet());
        Sandboxes sandboxes = create(backend, c -> tweak.apply(c.withWorkerId(id)));
        if (sandboxes.unavailableReason().isPresent()) {
            sandboxes.close();
        }
        requireAvailable(backend, sandboxes);
        return sandboxes;
    }

    private static Sandboxes create(String backend, UnaryOperator<SandboxConfig> tweak) {
        SandboxConfig.Backend choice = SandboxConfig.Backend.parse(backend);
        return new Sandboxes(tweak.apply(SandboxConfig.defaults().withBackend(choice)));
    }

    /**
     * For tests that fill a sandbox's process table: without a pids limit (bubblewrap without writable control
     * groups) they would flood the machine. Skipped like a missing Docker engine, failed under {@code CI=true}.
     */
    public static void requireProcessLimit(String backend, Sandboxes sandboxes) {
        if (sandboxes.limitsProcesses()) {
            return;
        }
        String why = "the " + backend + " backend has no process limit here (no writable control groups)";
        if (!"true".equals(System.getenv("CI"))) {
            Assumptions.abort(why);
        }
        Assertions.fail(why);
    }

    private static void requireAvailable(String backend, Sandboxes sandboxes) {
        String why = sandboxes.unavailableReason().orElse(null);
        if (why == null) {
            return;
        }
        if (backend.equals(DOCKER) && !"true".equals(System.getenv("CI"))) {
            Assumptions.abort("Docker backend not available here (and CI is not true): " + why);
        }
        Assertions.fail("the " + backend + " backend must be available: " + why);
    }
}
