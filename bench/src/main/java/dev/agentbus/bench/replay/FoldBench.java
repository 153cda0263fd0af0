package dev.agentbus.bench.replay;

import dev.agentbus.bench.Stats;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;

import java.util.ArrayList;
import java.util.List;

/**
 * Replay throughput of the pure fold: events folded per second for one session of 10², 10³, 10⁴ and 10⁵ events of
 * realistic work ({@link SyntheticSessions}), and the time to rehydrate one 10⁴-event session (p50 and p99): from
 * decoded events, from the JSON bytes as they lie on the topic, and from a snapshot plus the events after it.
 *
 * <p>Run with {@code bin/bench FoldBench}. Goals (issue 4): at least 1,000,000 events/s folded in memory; p99
 * rehydration of a 10⁴-event session under 50 ms.
 */
public final class FoldBench {
    static final int[] SIZES = {100, 1_000, 10_000, 100_000};
    /** Events folded per size and round: enough repetitions of the small sessions to time them well. */
    static final long EVENTS_PER_SIZE = Long.getLong("fold.events", 3_000_000);
    static final int REHYDRATIONS = Integer.getInteger("fold.rehydrations", 400);

    private FoldBench() {
    }

    /** @param args optionally the largest session size to time (default 100000), to time a slow fold quickly */
    public static void main(String[] args) {
        int largest = args.length > 0 ? Integer.parseInt(args[0]) : SIZES[SIZES.length - 1];
        int[] sizes = java.util.Arrays.stream(SIZES).filter(n -> n <= largest).toArray();
        System.out.println("FoldBench on " + Stats.machine());
        List<List<EventEnvelope>> logs = new ArrayList<>();
        for (int size : sizes) {
            logs.add(SyntheticSessions.session("ses-" + size, size, size));
        }
        long sink = 0;

        // Warm-up: the JIT compiles the fold before anything is timed.
        for (int round = 0; round < 3; round++) {
            for (List<EventEnvelope> log : logs) {
                for (long folded = 0; folded < EVENTS_PER_SIZE / 3; folded += log.size()) {
                    sink += SessionFold.fold("w", log).lastSeq();
                }
            }
        }

        System.out.println();
        System.out.println("| events in the session | folds timed | median time per fold | median events/s | p99 time per fold | events/s at p99 |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        double[] medianNanosPerEvent = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            List<EventEnvelope> log = logs.get(i);
            int reps = (int) Math.max(15, EVENTS_PER_SIZE / log.size());
            double[] nanos = new double[reps];
            for (int r = 0; r < reps; r++) {
                long t0 = System.nanoTime();
                SessionState s = SessionFold.fold(log.getFirst().sessionId(), log);
                nanos[r] = System.nanoTime() - t0;
                sink += s.lastSeq();
            }
            double median = Stats.median(nanos);
            double p99 = Stats.percentile(nanos, 99);
            medianNanosPerEvent[i] = median / log.size();
            System.out.printf("| %,d | %,d | %s | %,.0f | %s | %,.0f |%n", log.size(), reps, time(median),
                    log.size() / (median / 1e9), time(p99), log.size() / (p99 / 1e9));
        }
        System.out.printf("%nCost per event, %,d-event session / %,d-event session: %.2f (1.0 = linear)%n",
                sizes[sizes.length - 1], sizes[0], medianNanosPerEvent[sizes.length - 1] / medianNanosPerEvent[0]);

        // Rehydrating one 10^4-event session: from decoded events (in memory), and from the bytes on the topic.
        if (sizes.length < 3) {
            System.out.println("(no 10^4-event session timed: rehydration skipped)");
            return;
        }
        List<EventEnvelope> tenK = logs.get(2);
        List<byte[]> bytes = tenK.stream().map(EventCodec::encodeEvent).toList();
        long totalBytes = bytes.stream().mapToLong(b -> b.length).sum();
        for (int w = 0; w < Math.min(30, REHYDRATIONS); w++) {
            sink += rehydrateFromBytes(bytes).lastSeq();
        }
        // What the orchestrator reads with snapshots every 100 events: the snapshot at seq 9,901 and 99 events.
        int snapshotSeq = tenK.size() - 99;
        byte[] snapshot = SessionSnapshot.of(0, snapshotSeq, 0, 1, java.time.Instant.EPOCH,
                SessionFold.fold("ses-10000", tenK.subList(0, snapshotSeq))).encode();
        List<byte[]> tail = bytes.subList(snapshotSeq, bytes.size());
        for (int w = 0; w < Math.min(30, REHYDRATIONS); w++) {
            sink += rehydrateFromSnapshot(snapshot, tail).lastSeq();
        }
        double[] inMemory = new double[REHYDRATIONS];
        double[] fromBytes = new double[REHYDRATIONS];
        double[] fromSnapshot = new double[REHYDRATIONS];
        double[] fromBytesByTree = new double[REHYDRATIONS];
        for (int w = 0; w < Math.min(30, REHYDRATIONS); w++) {
            sink += rehydrateFromBytesByTree(bytes).lastSeq();
        }
        for (int r = 0; r < REHYDRATIONS; r++) {
            long t0 = System.nanoTime();
            sink += SessionFold.fold("ses-10000", tenK).lastSeq();
            long t1 = System.nanoTime();
            sink += rehydrateFromBytes(bytes).lastSeq();
            long t2 = System.nanoTime();
            SessionState fromSnap = rehydrateFromSnapshot(snapshot, tail);
            long t3 = System.nanoTime();
            sink += fromSnap.lastSeq();
            long t4 = System.nanoTime();
            sink += rehydrateFromBytesByTree(bytes).lastSeq();
            fromBytesByTree[r] = System.nanoTime() - t4;
            inMemory[r] = t1 - t0;
            fromBytes[r] = t2 - t1;
            fromSnapshot[r] = t3 - t2;
        }
        if (!rehydrateFromSnapshot(snapshot, tail).equals(SessionFold.fold("ses-10000", tenK))) {
            throw new AssertionError("snapshot + tail differs from the fold of the whole log");
        }
        System.out.printf("%nRehydrating one 10^4-event session (%,d rehydrations; %.1f MiB of event JSON):%n",
                REHYDRATIONS, totalBytes / 1048576.0);
        System.out.println("| from | p50 | p99 | max |");
        System.out.println("|---|---:|---:|---:|");
        System.out.printf("| decoded events (fold only) | %s | %s | %s |%n", time(Stats.median(inMemory)),
                time(Stats.percentile(inMemory, 99)), time(Stats.percentile(inMemory, 100)));
        System.out.printf("| JSON bytes (decode + fold) | %s | %s | %s |%n", time(Stats.median(fromBytes)),
                time(Stats.percentile(fromBytes, 99)), time(Stats.percentile(fromBytes, 100)));
        System.out.printf("| JSON bytes, read as a JSON tree first (the general decoder, for comparison) | %s | %s | %s |%n",
                time(Stats.median(fromBytesByTree)), time(Stats.percentile(fromBytesByTree, 99)),
                time(Stats.percentile(fromBytesByTree, 100)));
        System.out.printf("| snapshot at seq %,d + 99 events, as JSON bytes (%.1f MiB snapshot) | %s | %s | %s |%n",
                snapshotSeq, snapshot.length / 1048576.0, time(Stats.median(fromSnapshot)),
                time(Stats.percentile(fromSnapshot, 99)), time(Stats.percentile(fromSnapshot, 100)));

        double slowestMedianRate = Double.MAX_VALUE;
        for (int i = 0; i < sizes.length; i++) {
            slowestMedianRate = Math.min(slowestMedianRate, 1e9 / medianNanosPerEvent[i]);
        }
        System.out.printf("%nGoal: >= 1,000,000 events/s folded in memory at every size: %s (slowest median %,.0f/s)%n",
                slowestMedianRate >= 1_000_000 ? "met" : "NOT met", slowestMedianRate);
        double p99InMemory = Stats.percentile(inMemory, 99);
        System.out.printf("Goal: p99 rehydration of a 10^4-event session < 50 ms: %s in memory (%s); from bytes %s "
                        + "without a snapshot, %s with one%n", p99InMemory < 50e6 ? "met" : "NOT met",
                time(p99InMemory), time(Stats.percentile(fromBytes, 99)), time(Stats.percentile(fromSnapshot, 99)));
        System.out.println("(checksum " + sink + ")");
    }

    static SessionState rehydrateFromBytes(List<byte[]> bytes) {
        SessionState s = null;
        for (byte[] b : bytes) {
            EventEnvelope e = EventCodec.decodeEvent(b);
            s = SessionFold.evolve(s == null ? SessionState.initial(e.sessionId()) : s, e);
        }
        return s;
    }

    /** The same through the tree reader alone, which the streaming reader falls back to for unusual records. */
    static SessionState rehydrateFromBytesByTree(List<byte[]> bytes) {
        SessionState s = null;
        for (byte[] b : bytes) {
            EventEnvelope e;
            try {
                e = EventCodec.eventFromNode(dev.agentbus.events.Json.mapper().readTree(b));
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
            s = SessionFold.evolve(s == null ? SessionState.initial(e.sessionId()) : s, e);
        }
        return s;
    }

    static SessionState rehydrateFromSnapshot(byte[] snapshot, List<byte[]> tail) {
        SessionState s = SessionSnapshot.decode("ses-10000", snapshot).state();
        for (byte[] b : tail) {
            s = SessionFold.evolve(s, EventCodec.decodeEvent(b));
        }
        return s;
    }

    static String time(double nanos) {
        if (nanos >= 1e6) {
            return String.format("%.2f ms", nanos / 1e6);
        }
        return String.format("%.1f µs", nanos / 1e3);
    }
}
