package dev.agentbus.bench.steps;

import dev.agentbus.bench.Stats;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The tables docs/benchmarks.md quotes, in Markdown. */
final class Report {
    private Report() {
    }

    static void print(List<StackRun.Result> ramp, Map<String, InProcessLoop.Result> floors) {
        System.out.println();
        System.out.println("StepBench on " + Stats.machine());
        System.out.println();
        System.out.println("| step | p50 ms | p99 ms | model p50 ms | tool p50 ms |");
        System.out.println("|---|---|---|---|---|");
        for (InProcessLoop.Result f : floors.values()) {
            System.out.printf(Locale.ROOT, "| in process, `%s` | %.2f | %.2f | %.2f | %.2f |%n", f.tool(), f.p50(),
                    f.p99(), Stats.percentile(f.modelMs(), 50), Stats.percentile(f.toolMs(), 50));
        }
        System.out.println();
        System.out.println("| tool per step | sessions at once | step p50 ms | step p99 ms | steps/s (node) "
                + "| bus overhead p50 ms | JVM CPU (cores) | machine busy | RSS MiB |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (StackRun.Result r : ramp) {
            InProcessLoop.Result floor = floors.get(r.tool());
            String overhead = floor == null || !r.firstToken().isZero() ? "—"
                    : String.format(Locale.ROOT, "%.1f", r.p50() - floor.p50());
            System.out.printf(Locale.ROOT, "| `%s` | %s | %.1f | %.1f | %.1f | %s | %.2f | %.0f%% | %d |%n",
                    r.label(), r.unfinished() == 0 ? Integer.toString(r.sessions())
                            : r.sessions() + " (" + r.unfinished() + " did not end)",
                    r.p50(), r.p99(), r.stepsPerSecond(), overhead, r.cpuCores(),
                    r.machineBusy() * 100, r.rssBytes() / (1024 * 1024));
        }
        for (StackRun.Result r : ramp) {
            if (r.sessions() != 1 || !r.firstToken().isZero()) {
                continue;
            }
            System.out.println();
            System.out.println("Where one step's time goes (`" + r.tool() + "`, one session): the time between "
                    + "consecutive events of a session");
            System.out.println();
            System.out.println("| from | to | p50 ms | p99 ms | count |");
            System.out.println("|---|---|---|---|---|");
            r.transitions().forEach((pair, ms) -> {
                String[] fromTo = pair.split(" → ");
                System.out.printf(Locale.ROOT, "| `%s` | `%s` | %.1f | %.1f | %d |%n", fromTo[0], fromTo[1],
                        Stats.percentile(ms, 50), Stats.percentile(ms, 99), ms.length);
            });
        }
        System.out.println();
        System.out.println("bus overhead = the stack's step p50 minus the in-process step p50 for the same tool "
                + "(the model's and the tool's own time are in both)");
    }
}
