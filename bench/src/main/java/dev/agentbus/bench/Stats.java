package dev.agentbus.bench;

import java.util.Arrays;

/** Percentiles of a sample, nearest-rank, and the machine the numbers come from. */
public final class Stats {
    private Stats() {
    }

    /** NaN for an empty sample (a run in which nothing finished), so a report can still be printed. */
    public static double percentile(double[] sample, double p) {
        if (sample.length == 0) {
            return Double.NaN;
        }
        double[] sorted = sample.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static double median(double[] sample) {
        return percentile(sample, 50);
    }

    public static String machine() {
        Runtime rt = Runtime.getRuntime();
        return "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + "), "
                + rt.availableProcessors() + " cores, max heap " + rt.maxMemory() / (1024 * 1024) + " MiB, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}
