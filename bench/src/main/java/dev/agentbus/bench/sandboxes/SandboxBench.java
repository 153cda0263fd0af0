package dev.agentbus.bench.sandboxes;

import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.Sandbox;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * How long a command takes in a sandbox, side by side in one run (docs/benchmarks-sandbox.md):
 * <ul>
 *   <li>host: fork/exec of {@code /bin/true} from the JVM, the floor any sandbox is compared with;</li>
 *   <li>warm: one command in a session's running persistent shell, per backend: {@code /bin/true} (a fork and
 *       exec inside the sandbox, the fair comparison with the host) and the built-in {@code true} (the protocol's
 *       own round trip, no process started);</li>
 *   <li>cold: the first command of a new session (sandbox created, shell started), per backend;</li>
 *   <li>pooled: the same with a small pool of pre-started sandboxes (the pool refills between samples, untimed).</li>
 * </ul>
 * Goals: warm bubblewrap within 3x host fork/exec; warm Docker under 20 ms (median); pooled first command under
 * 150 ms (median). {@code bin/bench SandboxBench [warm-samples] [cold-samples]}; a backend that is not available
 * here is reported as such and skipped.
 */
public final class SandboxBench {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SandboxBench() {
    }

    public static void main(String[] args) throws Exception {
        int warm = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int cold = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path root = Files.createTempDirectory("agentbus-sandbox-bench");
        Map<String, double[]> results = new LinkedHashMap<>();

        results.put("host fork/exec of /bin/true", hostForkExec(warm));
        for (SandboxConfig.Backend backend : List.of(SandboxConfig.Backend.BUBBLEWRAP, SandboxConfig.Backend.DOCKER)) {
            String name = backend.name().toLowerCase();
            SandboxConfig config = SandboxConfig.defaults().withBackend(backend).withWorkerId("bench");
            try (Sandboxes sandboxes = new Sandboxes(config)) {
                if (sandboxes.unavailableReason().isPresent()) {
                    System.out.println(name + ": not available here (" + sandboxes.unavailableReason().get() + ")");
                    continue;
                }
                results.put(name + ": warm command /bin/true", warmCommand(sandboxes, root, warm, "/bin/true"));
                results.put(name + ": warm command, built-in true", warmCommand(sandboxes, root, warm, "true"));
                results.put(name + ": first command, cold", firstCommand(sandboxes, root, cold, "cold-" + name));
            }
            try (Sandboxes pooled = new Sandboxes(config.withPool(3, root.resolve(".pool")))) {
                results.put(name + ": first command, warm pool", firstCommandPooled(pooled, root, cold, name));
            }
        }
        print(results, warm, cold);
    }

    private static double[] hostForkExec(int samples) throws IOException, InterruptedException {
        double[] ms = new double[samples];
        for (int i = -20; i < samples; i++) {
            long start = System.nanoTime();
            Process p = new ProcessBuilder("/bin/true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("/bin/true failed");
            }
            if (i >= 0) {
                ms[i] = millis(start);
            }
        }
        return ms;
    }

    private static double[] warmCommand(Sandboxes sandboxes, Path root, int samples, String command)
            throws Exception {
        Sandbox sandbox = sandboxes.acquire(spec(root, "warm"));
        double[] ms = new double[samples];
        for (int i = -20; i < samples; i++) { // 20 untimed rounds warm the JIT and the shell
            long start = System.nanoTime();
            check(sandbox.shell(command, TIMEOUT, null));
            if (i >= 0) {
                ms[i] = millis(start);
            }
        }
        return ms;
    }

    private static double[] firstCommand(Sandboxes sandboxes, Path root, int samples, String prefix)
            throws Exception {
        double[] ms = new double[samples];
        for (int i = -2; i < samples; i++) {
            SandboxSpec spec = spec(root, prefix + i);
            long start = System.nanoTime();
            Sandbox sandbox = sandboxes.acquire(spec);
            check(sandbox.shell("true", TIMEOUT, null));
            if (i >= 0) {
                ms[i] = millis(start);
            }
            sandbox.close();
        }
        return ms;
    }

    private static double[] firstCommandPooled(Sandboxes sandboxes, Path root, int samples, String name)
            throws Exception {
        double[] ms = new double[samples];
        for (int i = -2; i < samples; i++) {
            awaitPool(sandboxes, 3);
            SandboxSpec spec = spec(root, "pooled-" + name + i);
            long start = System.nanoTime();
            Sandbox sandbox = sandboxes.acquire(spec);
            check(sandbox.shell("true", TIMEOUT, null));
            if (i >= 0) {
                ms[i] = millis(start);
            }
            sandbox.close();
        }
        return ms;
    }

    private static void awaitPool(Sandboxes sandboxes, int size) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (sandboxes.pooled() < size) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pool did not fill in 2 minutes");
            }
            Thread.sleep(10);
        }
    }

    private static SandboxSpec spec(Path root, String session) throws IOException {
        Path workspace = Files.createDirectories(root.resolve("bench-user").resolve(session + "-"
                + UUID.randomUUID().toString().substring(0, 8)));
        return new SandboxSpec("bench-user", workspace.getFileName().toString(), workspace, null);
    }

    private static void check(CommandResult result) throws SandboxException {
        if (result.timedOut() || result.exitCode() != 0) {
            throw new SandboxException("the benchmark command failed: " + result);
        }
    }

    private static double millis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    private static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
    }

    private static void print(Map<String, double[]> results, int warm, int cold) {
        double host = percentile(Objects.requireNonNull(results.get("host fork/exec of /bin/true")), 0.5);
        System.out.printf("%nSandbox round trips (%d warm samples, %d cold samples; %d cores)%n", warm, cold,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("| %-40s | %9s | %9s | %9s | %10s |%n", "what", "median ms", "p90 ms", "max ms",
                "x host");
        System.out.println("|" + "-".repeat(42) + "|" + "-".repeat(11) + "|" + "-".repeat(11) + "|"
                + "-".repeat(11) + "|" + "-".repeat(12) + "|");
        List<String> goals = new ArrayList<>();
        results.forEach((name, ms) -> {
            double median = percentile(ms, 0.5);
            System.out.printf("| %-40s | %9.2f | %9.2f | %9.2f | %10.2f |%n", name, median, percentile(ms, 0.9),
                    percentile(ms, 1.0), median / host);
            if (name.equals("bubblewrap: warm command /bin/true")) {
                goals.add(String.format("warm bubblewrap within 3x host fork/exec: %.1fx -> %s", median / host,
                        median <= 3 * host ? "met" : "NOT met"));
            } else if (name.equals("docker: warm command /bin/true")) {
                goals.add(String.format("warm Docker under 20 ms: %.2f ms -> %s", median,
                        median < 20 ? "met" : "NOT met"));
            } else if (name.endsWith("first command, warm pool")) {
                goals.add(String.format("%s under 150 ms: %.2f ms -> %s", name, median,
                        median < 150 ? "met" : "NOT met"));
            }
        });
        System.out.println();
        goals.forEach(goal -> System.out.println("goal: " + goal));
    }
}
