package dev.agentbus.bench.projections;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.projecting.ProjectionRuns;
import dev.agentbus.gateway.readmodels.projecting.Projector;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Projection rebuild rate: how many session events per second the gateway's projector applies to the PostgreSQL read
 * models (sessions, search, token analytics, audit) when it rebuilds them from offset 0.
 *
 * <p>It writes a synthetic log to a real broker (sessions of one turn each: a message, a model call asking for two
 * tool calls, their request/start/result, a second model call with the answer, the end of the turn: 13 events, of
 * which 2 are indexed for search, 2 add token usage and 6 touch the audit log), lets the projector catch up once,
 * then times {@code --runs} rebuilds (truncate, re-read, re-apply). Wall time runs from the rebuild request until
 * the stored offsets reach the log's end; the projector's own rate (events / time to its last batch) is shown too.
 *
 * <p>{@code bin/bench ProjectionRebuildBench [--sessions N] [--runs N] [--partitions N] [--single-row-inserts]}
 * ({@code --single-row-inserts} turns off the driver's multi-row INSERTs, to show what they are worth).
 */
public final class ProjectionRebuildBench {
    private static final int EVENTS_PER_SESSION = 13;

    public static void main(String[] args) throws Exception {
        int sessions = intArg(args, "--sessions", 10_000);
        int runs = intArg(args, "--runs", 3);
        int partitions = intArg(args, "--partitions", 3);
        boolean singleRowInserts = java.util.Arrays.asList(args).contains("--single-row-inserts");
        Path dir = Files.createTempDirectory("agentbus-bench-projections");

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).port(0).build()) {
            broker.start();
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), partitions, "0");
            TopicAdmin.ensureTopics(kafka);
            long t0 = System.nanoTime();
            long events = writeLog(kafka, sessions);
            System.out.printf(Locale.ROOT, "wrote %,d events (%,d sessions, %d partitions) in %.1f s%n", events,
                    sessions, partitions, seconds(System.nanoTime() - t0));

            try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres"))
                    .start();
                 ReadModelDatabase database = ReadModelDatabase.connect(postgres.getJdbcUrl("postgres", "postgres")
                         + (singleRowInserts ? "&reWriteBatchedInserts=false" : ""), null, null);
                 Projector projector = new Projector(database, kafka).start()) {
                long start = System.nanoTime();
                awaitCaughtUp(projector, null);
                System.out.printf(Locale.ROOT, "first projection (warm-up): %.1f s%n%n",
                        seconds(System.nanoTime() - start));

                System.out.println("run  events     wall s  events/s (wall)  events/s (projector)");
                List<Double> wallRates = new ArrayList<>();
                List<Double> ownRates = new ArrayList<>();
                for (int i = 1; i <= runs; i++) {
                    long begin = System.nanoTime();
                    ProjectionRuns.Status started = projector.rebuild();
                    ProjectionRuns.Status done = awaitCaughtUp(projector, started.run());
                    double wall = seconds(System.nanoTime() - begin);
                    double wallRate = done.eventsApplied() / wall;
                    wallRates.add(wallRate);
                    ownRates.add(done.eventsPerSecond());
                    System.out.printf(Locale.ROOT, "%3d  %,9d  %6.2f  %,15.0f  %,20.0f%n", i, done.eventsApplied(),
                            wall, wallRate, done.eventsPerSecond());
                }
                System.out.printf(Locale.ROOT, "%nmedian rebuild rate: %,.0f events/s (wall), %,.0f events/s "
                        + "(projector)%n", median(wallRates), median(ownRates));
            }
        }
    }

    /** Waits until the stored offsets reach the end of the log for the given run (null: whatever run is current). */
    private static ProjectionRuns.Status awaitCaughtUp(Projector projector, Long run) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                ProjectionRuns.Status s = projector.status();
                boolean thisRun = run == null || run.equals(s.run());
                if (thisRun && s.offsetsTotal() > 0 && s.offsetsDone() >= s.offsetsTotal()) {
                    // The offsets are there; the run's own figures are final once it has noted that it caught up.
                    while (!"caught_up".equals(s.state())) {
                        Thread.sleep(50);
                        s = projector.status();
                    }
                    return s;
                }
            } catch (RuntimeException notYet) {
                // the schema is still being migrated
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the projection did not catch up within 30 minutes");
    }

    private static long writeLog(KafkaSettings kafka, int sessions) {
        Map<String, Object> config = kafka.producer("bench-log-writer");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        long count = 0;
        Instant time = Instant.parse("2026-11-01T08:00:00Z");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < sessions; i++) {
                String id = UUID.randomUUID().toString();
                String user = "user-" + (i % 20);
                time = time.plusSeconds(60);
                List<SessionEvent> turn = List.of(
                        new SessionEvent.SessionCreated("bench session " + i),
                        new SessionEvent.UserMessagePosted("Find the largest files in the project and summarise "
                                + "what they contain, session " + i),
                        new SessionEvent.ModelCallStarted("r1", 1),
                        new SessionEvent.ModelCallCompleted("r1", "bench-model-" + (i % 3), null, null, List.of(
                                new ToolCallSpec("c1", "shell", "{\"command\":\"du -a . | sort -n | tail -5\"}"),
                                new ToolCallSpec("c2", "read", "{\"path\":\"README.md\"}")),
                                new TokenUsage(1200, 40, 1240), "tool_calls"),
                        new SessionEvent.ToolCallRequested("c1", "shell", "{\"command\":\"du -a . | sort -n | tail -5\"}"),
                        new SessionEvent.ToolCallRequested("c2", "read", "{\"path\":\"README.md\"}"),
                        new SessionEvent.ToolCallStarted("c1", "sandbox-worker-0"),
                        new SessionEvent.ToolCallCompleted("c1", true, "120 ./data.bin\nexit code: 0", null, null,
                                false, 35, false),
                        new SessionEvent.ToolCallStarted("c2", "sandbox-worker-0"),
                        new SessionEvent.ToolCallCompleted("c2", true, "# Project\nA readme.", null, null, false, 3,
                                false),
                        new SessionEvent.ModelCallStarted("r2", 2),
                        new SessionEvent.ModelCallCompleted("r2", "bench-model-" + (i % 3), "The largest file is "
                                + "data.bin (120 KB); the readme describes the project.", null, List.of(),
                                new TokenUsage(1500, 60, 1560), "stop"),
                        new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "The largest file is data.bin.", null));
                long seq = 0;
                for (SessionEvent e : turn) {
                    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), id, ++seq,
                            time.plusMillis(seq * 100), "inp", user, e);
                    producer.send(Records.event(envelope, "bench", TraceHeaders.newTrace()));
                    count++;
                }
            }
            producer.flush();
        }
        if (count != (long) sessions * EVENTS_PER_SESSION) {
            throw new IllegalStateException("wrote " + count + " events, expected " + sessions * EVENTS_PER_SESSION);
        }
        return count;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static int intArg(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
