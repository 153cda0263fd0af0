package dev.agentbus.systemtests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@link SymlinkRaceIT} saw, per probe (one route or tool on one path): how often it was tried, with which
 * outcome (an HTTP status, or ok / failed for a tool), and every leak, so the failure names the probe that leaked.
 */
final class RaceTally {
    private static final int EVIDENCE_KEPT = 3;

    private final Map<String, Map<String, AtomicInteger>> outcomes = new ConcurrentSkipListMap<>();
    private final Map<String, List<String>> leaks = new ConcurrentSkipListMap<>();
    private final Map<String, AtomicInteger> leakCounts = new ConcurrentHashMap<>();

    void attempt(String probe, String outcome) {
        outcomes.computeIfAbsent(probe, p -> new ConcurrentSkipListMap<>())
                .computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
    }

    /** Declares a probe before its first attempt, so one never tried shows up with 0. */
    void expect(String probe) {
        outcomes.computeIfAbsent(probe, p -> new ConcurrentSkipListMap<>());
    }

    void leak(String probe, String evidence) {
        int n = leakCounts.computeIfAbsent(probe, p -> new AtomicInteger()).incrementAndGet();
        if (n <= EVIDENCE_KEPT) {
            List<String> kept = leaks.computeIfAbsent(probe, p -> new ArrayList<>());
            synchronized (kept) {
                kept.add(evidence);
            }
        }
    }

    int attempts(String probe) {
        Map<String, AtomicInteger> o = outcomes.get(probe);
        return o == null ? 0 : o.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** The probes tried fewer than {@code min} times. */
    List<String> underExercised(int min) {
        return outcomes.keySet().stream().filter(p -> attempts(p) < min).map(p -> p + ": " + attempts(p)).toList();
    }

    boolean leaked() {
        return !leaks.isEmpty();
    }

    /** Every leak, probe by probe, with how often it happened and the first pieces of evidence. */
    String leakReport() {
        StringBuilder s = new StringBuilder();
        leaks.forEach((probe, evidence) -> {
            s.append("  ").append(probe).append(": ").append(leakCounts.get(probe)).append(" leak(s)")
                    .append(attempts(probe) > 0 ? " in " + attempts(probe) + " attempts" : "").append('\n');
            synchronized (evidence) {
                evidence.forEach(e -> s.append("      ").append(e).append('\n'));
            }
        });
        return s.toString();
    }

    /** Every probe with its attempts by outcome, for the test's output. */
    String attemptReport() {
        StringBuilder s = new StringBuilder();
        outcomes.forEach((probe, byOutcome) -> s.append("  ").append(probe).append(": ").append(attempts(probe))
                .append(" attempts ").append(byOutcome).append('\n'));
        return s.toString();
    }
}
