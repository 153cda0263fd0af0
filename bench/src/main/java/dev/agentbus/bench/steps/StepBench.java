package dev.agentbus.bench.steps;

import dev.agentbus.bench.Stats;
import dev.agentbus.standalone.Standalone;
import dev.agentbus.testkit.model.ScriptedModelServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one agent step costs on the bus (docs/benchmarks.md, "The agent step"). A step is one model call that asks
 * for one tool, then that tool's result; its time is taken between consecutive {@code tool_call.requested.v1} events
 * of a session, from the events' own {@code time} fields (all stamped by the orchestrator, so no clock skew).
 *
 * <p>Side by side in one run:
 * <ul>
 *   <li>the in-process loop ({@link InProcessLoop}): the same model client and the same tool code, called directly,
 *       one after the other: the floor, with no Kafka at all;</li>
 *   <li>the full standalone stack (a real broker, the five services), with a ramp of concurrent sessions
 *       ({@link StackRun}), reporting step p50/p99, steps per second, CPU and RSS;</li>
 *   <li>the bus overhead per step: the stack's step minus the in-process step for the same tool.</li>
 * </ul>
 *
 * <pre>
 * bin/bench StepBench [--tools ls,shell,write] [--ramp 1,10,100,1000] [--steps 20] [--backend auto]
 *                     [--capacity 1000] [--first 20] [--plot docs/step-ramp.png]
 * </pre>
 * {@code --capacity N} adds a run of N sessions against a slow model (500 ms to the first token, then about 50
 * tokens/s), whose p99 is compared with one session against the same model, and reports the heap per live session.
 * {@code --first N} starts N new sessions one after another, each running one {@code shell} command, and reports the
 * first command's time with the default warm pool.
 */
public final class StepBench {
    static final String TOKEN = "step-bench-token";

    private StepBench() {
    }

    record Options(List<String> tools, List<Integer> ramp, int steps, String backend, int capacity, int first,
                   Path plot) {
        static Options parse(String[] args) {
            Map<String, String> given = new HashMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                if (!args[i].startsWith("--")) {
                    throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
                }
                given.put(args[i].substring(2), args[i + 1]);
            }
            if (args.length % 2 != 0) {
                throw new IllegalArgumentException("option " + args[args.length - 1] + " has no value");
            }
            List<String> tools = List.of(given.getOrDefault("tools", "ls,shell,write").split(","));
            for (String tool : tools) {
                if (!ToolUnderTest.NAMES.contains(tool)) {
                    throw new IllegalArgumentException("unknown tool '" + tool + "'; choose from " + ToolUnderTest.NAMES);
                }
            }
            List<Integer> ramp = Arrays.stream(given.getOrDefault("ramp", "1,10,100,1000").split(","))
                    .map(String::strip).map(Integer::parseInt).toList();
            return new Options(tools, ramp, Integer.parseInt(given.getOrDefault("steps", "20")),
                    given.getOrDefault("backend", "auto"), Integer.parseInt(given.getOrDefault("capacity", "0")),
                    Integer.parseInt(given.getOrDefault("first", "0")),
                    given.containsKey("plot") ? Path.of(given.get("plot")) : null);
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("StepBench: " + e.getMessage());
            System.exit(64);
            return;
        }
        Quiet.logs();
        Path data = Files.createTempDirectory("agentbus-step-bench");
        List<StackRun.Result> results = new ArrayList<>();
        Map<String, InProcessLoop.Result> floors = new HashMap<>();
        try (ScriptedModelServer model = ScriptedModelServer.start().keepOnlyTheLastRequest();
             Standalone stack = new Standalone(data, 0)) {
            stack.start(Map.of(
                    "llm.url", model.baseUrl(),
                    "agentbus.gateway.port", "-1",
                    "agentbus.gateway.token", TOKEN,
                    // the turn ends at the cap: every scripted reply is a tool call, whichever session it reaches
                    "agentbus.agent.max-iterations", Integer.toString(options.steps()),
                    // A benchmark scripts the same kind of call over and over, which the loop guards would (rightly) stop.
                    "agentbus.loop-guard.repeated-calls", "0", "agentbus.loop-guard.no-progress", "0",
                    "agentbus.sandbox.backend", options.backend(),
                    "agentbus.sandbox.max-concurrent-calls", "16"));
            StackRun runner = new StackRun(stack, model, options.steps());
            for (String tool : options.tools()) {
                ToolUnderTest t = ToolUnderTest.named(tool);
                floors.put(tool, InProcessLoop.run(model, t, data.resolve("in-process-" + tool), options.backend(),
                        Math.max(50, options.steps() * 3)));
                runner.run(t, 2, Duration.ZERO); // warm-up: class loading, JIT, the first sandboxes
                for (int sessions : options.ramp()) {
                    StackRun.Result r = runner.run(t, sessions, Duration.ZERO);
                    results.add(r);
                    System.out.println(r.summary());
                }
            }
            if (options.first() > 0) {
                // the default pool refills one sandbox in well under 2 s
                double[] first = runner.firstCommands(ToolUnderTest.named("shell"), options.first(),
                        Duration.ofSeconds(2));
                System.out.printf(Locale.ROOT, "first command of a new session (shell, %s backend, default pool): "
                                + "p50 %.1f ms, p99 %.1f ms over %d sessions started one after another%n",
                        options.backend(), Stats.percentile(first, 50), Stats.percentile(first, 99), first.length);
            }
                        if (options.capacity() > 0) {
                ToolUnderTest t = ToolUnderTest.named("ls");
                StackRun.Result one = runner.run(t, 1, Duration.ofMillis(500));
                StackRun.Result many = runner.run(t, options.capacity(), Duration.ofMillis(500));
                results.add(one);
                results.add(many);
                System.out.printf(Locale.ROOT, "capacity: %d sessions, slow model: step p99 %.1f ms against %.1f ms "
                                + "for one session (%.2fx); heap per live session %.1f KiB%n", options.capacity(),
                        many.p99(), one.p99(), many.p99() / one.p99(), many.heapPerSessionKiB());
            }
        }
        Report.print(results, floors);
        if (options.plot() != null) {
            RampPlot.write(results, options.plot());
            System.out.println("plot: " + options.plot());
        }
    }
}
