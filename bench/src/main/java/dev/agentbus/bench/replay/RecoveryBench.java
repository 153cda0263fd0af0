package dev.agentbus.bench.replay;

import dev.agentbus.bench.Stats;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.orchestrator.running.SessionLogLoader;
import dev.agentbus.orchestrator.running.SnapshotCoverage;
import dev.agentbus.orchestrator.running.SnapshotTopic;
import dev.agentbus.orchestrator.running.SnapshotWriter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How long a cold orchestrator takes to rebuild its partitions, with and without snapshots, on a real (embedded)
 * broker: 1,000 sessions of 100 events each ({@link SyntheticSessions}), written the way the engine writes them
 * (a few events of a session per input, inputs of many sessions per transaction, sessions interleaved) with
 * {@link SnapshotWriter} snapshotting every {@code every} events as the engine does. Each rebuild is what the engine
 * does when it is given every partition: a new {@link SessionLogLoader} loads them side by side.
 *
 * <p>Run with {@code bin/bench RecoveryBench [sessions] [events per session] [snapshot every] [partitions]}
 * (defaults 1000 100 100 3). Goal (issue 4): 1,000 × 100 events recovered within 5 s with snapshots.
 */
public final class RecoveryBench {
    static final int EVENTS_PER_INPUT = 4;
    static final int SESSIONS_PER_TRANSACTION = 50;
    static final int RUNS = 5;

    private RecoveryBench() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int every = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int partitions = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        quietLogs();
        System.out.println("RecoveryBench on " + Stats.machine());
        System.out.printf("%,d sessions x %,d events, a snapshot every %d events, %d partitions%n", sessions, events,
                every, partitions);

        Path dir = Files.createTempDirectory("agentbus-recovery-bench");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build()) {
            broker.start();
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), partitions, "bench");
            TopicAdmin.ensureTopics(kafka);
            SnapshotTopic.configure(kafka); // as OrchestratorRuntime does

            long t0 = System.nanoTime();
            Map<Integer, Map<String, SessionState>> truth = write(kafka, sessions, events, every, partitions);
            System.out.printf("wrote the log and its snapshots in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            long logBytes = 0;
            long snapshotBytes = 0;
            for (Map<String, SessionState> partitionStates : truth.values()) {
                for (SessionState state : partitionStates.values()) {
                    snapshotBytes += SessionSnapshot.of(0, 0, 0, 0, java.time.Instant.EPOCH, state).encode().length;
                    for (EventEnvelope e : SyntheticSessions.session(state.sessionId(), events,
                            Integer.parseInt(state.sessionId().substring(4)))) {
                        logBytes += EventCodec.encodeEvent(e).length;
                    }
                }
            }
            System.out.printf("event JSON %.1f MiB in all; one snapshot of each session %.1f MiB in all "
                    + "(%.1f KiB per session)%n", logBytes / 1048576.0, snapshotBytes / 1048576.0,
                    snapshotBytes / 1024.0 / sessions);

            // The first rebuild pays for class loading and a cold JIT, as a restarted orchestrator does: it is the
            // one with snapshots, so the goal is checked against the worse case.
            Rebuild firstWith = rebuild(kafka, partitions, true, true, truth);
            Rebuild firstWithout = rebuild(kafka, partitions, false, true, truth);
            Map<String, double[]> runs = new java.util.LinkedHashMap<>();
            Map<String, Rebuild> last = new HashMap<>();
            for (boolean useSnapshots : new boolean[] {false, true}) {
                for (boolean sideBySide : new boolean[] {true, false}) {
                    runs.put(key(useSnapshots, sideBySide), new double[RUNS]);
                }
            }
            for (int run = 0; run < RUNS; run++) {
                for (boolean useSnapshots : new boolean[] {false, true}) {
                    for (boolean sideBySide : new boolean[] {true, false}) {
                        Rebuild r = rebuild(kafka, partitions, useSnapshots, sideBySide, truth);
                        runs.get(key(useSnapshots, sideBySide))[run] = r.seconds;
                        last.put(key(useSnapshots, sideBySide), r);
                    }
                }
            }

            System.out.println();
            System.out.println("| rebuild of all partitions | first (cold JVM) | median of " + RUNS + " | slowest of "
                    + RUNS + " | sessions from snapshots | events decoded and folded | events read |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|");
            for (Map.Entry<String, double[]> e : runs.entrySet()) {
                Rebuild r = last.get(e.getKey());
                boolean asTheEngine = e.getKey().endsWith("side by side (as the engine does)");
                Rebuild cold = e.getKey().startsWith("with ") ? firstWith : firstWithout;
                System.out.printf("| %s | %s | %.2f s | %.2f s | %,d | %,d | %,d |%n", e.getKey(),
                        asTheEngine ? String.format("%.2f s", cold.seconds) : "", Stats.median(e.getValue()),
                        Stats.percentile(e.getValue(), 100), r.fromSnapshots, r.folded, r.read);
            }
            double with = Stats.median(runs.get(key(true, true)));
            double without = Stats.median(runs.get(key(false, true)));
            System.out.printf("%nWith / without snapshots (medians, side by side): %.2f%n", with / without);
            double worst = Math.max(firstWith.seconds, Stats.percentile(runs.get(key(true, true)), 100));
            System.out.printf("Goal: 1,000 x 100 events recovered within 5 s with snapshots: %s (%,d x %,d events: "
                    + "slowest %.2f s)%n", worst < 5 ? "met" : "NOT met", sessions, events, worst);
        }
    }

    private record Rebuild(double seconds, long folded, long read, int fromSnapshots) {
    }

    private static String key(boolean useSnapshots, boolean sideBySide) {
        return (useSnapshots ? "with snapshots, " : "without snapshots, ")
                + (sideBySide ? "partitions side by side (as the engine does)" : "partitions one after the other");
    }

    /** A cold rebuild: what the engine does when it is given every partition. Checks it against the truth. */
    private static Rebuild rebuild(KafkaSettings kafka, int partitions, boolean useSnapshots, boolean sideBySide,
                                   Map<Integer, Map<String, SessionState>> truth) {
        long t0 = System.nanoTime();
        SessionLogLoader loader = new SessionLogLoader(kafka, useSnapshots);
        List<Integer> all = java.util.stream.IntStream.range(0, partitions).boxed().toList();
        List<SessionLogLoader.LoadedPartition> loaded = sideBySide ? loader.loadAll(all)
                : all.stream().map(loader::load).toList();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long folded = 0;
        long read = 0;
        int fromSnapshots = 0;
        for (SessionLogLoader.LoadedPartition l : loaded) {
            if (!l.states().equals(truth.getOrDefault(l.partition(), Map.of()))) {
                throw new AssertionError("partition " + l.partition() + " rebuilt wrong (snapshots " + useSnapshots + ")");
            }
            folded += l.stats().eventsFolded();
            read += l.stats().eventsRead();
            fromSnapshots += l.stats().snapshotsUsed();
        }
        return new Rebuild(seconds, folded, read, fromSnapshots);
    }

    /** Writes the log as the engine would, snapshots included, and returns the true states per partition. */
    private static Map<Integer, Map<String, SessionState>> write(KafkaSettings kafka, int sessions, int events,
                                                                 int every, int partitions) {
        Map<Integer, Map<String, SessionState>> states = new HashMap<>();
        List<List<EventEnvelope>> logs = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            logs.add(SyntheticSessions.session(String.format("ses-%05d", i), events, i));
        }
        SnapshotWriter snapshots = new SnapshotWriter(every, Clock.systemUTC());
        for (int p = 0; p < partitions; p++) {
            snapshots.adopt(new SnapshotCoverage(p));
            states.put(p, new HashMap<>());
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                SnapshotWriter.producerSettings(kafka, "bench-writer"))) {
            producer.initTransactions();
            for (int from = 0; from < events; from += EVENTS_PER_INPUT) {
                for (int first = 0; first < sessions; first += SESSIONS_PER_TRANSACTION) {
                    List<SnapshotWriter.Sent> sent = new ArrayList<>();
                    producer.beginTransaction();
                    for (int i = first; i < Math.min(sessions, first + SESSIONS_PER_TRANSACTION); i++) {
                        List<EventEnvelope> log = logs.get(i);
                        String id = log.getFirst().sessionId();
                        int partition = partitionOf(id, partitions);
                        Map<String, SessionState> partitionStates = states.get(partition);
                        SessionState state = partitionStates.getOrDefault(id, SessionState.initial(id));
                        for (EventEnvelope e : log.subList(from, Math.min(events, from + EVENTS_PER_INPUT))) {
                            state = SessionFold.evolve(state, e);
                            var record = Records.event(e, "bench", TraceHeaders.newTrace());
                            sent.add(new SnapshotWriter.Sent(id, e.seq(), producer.send(new ProducerRecord<>(
                                    record.topic(), partition, record.key(), record.value(), record.headers()))));
                        }
                        partitionStates.put(id, state);
                    }
                    producer.commitTransaction();
                    snapshots.afterCommit(producer, sent, states);
                }
            }
        }
        return states;
    }

    /** Kafka's and the loader's logs at INFO would drown the table; warnings (an ignored snapshot, say) still show. */
    private static void quietLogs() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
            context.getLogger("dev.agentbus").setLevel(ch.qos.logback.classic.Level.WARN);
            context.getLogger("org.apache.kafka").setLevel(ch.qos.logback.classic.Level.ERROR);
            context.getLogger("kafka").setLevel(ch.qos.logback.classic.Level.ERROR);
        }
    }

    /** The partition Kafka's default partitioner gives the key, so the log looks as the engine's would. */
    static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

}
