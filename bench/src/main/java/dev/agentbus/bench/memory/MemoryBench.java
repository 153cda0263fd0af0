package dev.agentbus.bench.memory;

import dev.agentbus.bench.Stats;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.testkit.model.ScriptedModelServer;
import io.micronaut.context.ApplicationContext;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Memory distillation throughput and rebuild time (issue 14), against a real broker, the real memory-service and
 * the scripted model server (which answers each extraction at once, so what is measured is Agentbus: reading the
 * log, the extraction request and its parsing, the insight keeper's transactions).
 *
 * <p>Distillation: {@code --batches} times, {@code --batch} completed turns (3 events each: a message, an answer, the
 * end; spread over {@code --users} users, 10 turns a session) are written to the session log, and the time until the
 * insight sets show all of them distilled gives turns per second; the median of the batches is reported. Rebuild:
 * {@code --rebuilds} times, a rebuild of every user is asked for, and the time until every user's set was swapped is
 * the rebuild time of all turns written (10,000 by default); the median is reported.
 *
 * <p>{@code bin/bench MemoryBench [--batch N] [--batches N] [--users N] [--rebuilds N] [--concurrency N]}
 */
public final class MemoryBench {
    public static void main(String[] args) throws Exception {
        int batch = intArg(args, "--batch", 2_000);
        int batches = intArg(args, "--batches", 5);
        int users = intArg(args, "--users", 50);
        int rebuilds = intArg(args, "--rebuilds", 3);
        int concurrency = intArg(args, "--concurrency", 4);
        Path dir = Files.createTempDirectory("agentbus-bench-memory");

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).port(0).build();
             ScriptedModelServer model = ScriptedModelServer.start()) {
            broker.start();
            model.keepOnlyTheLastRequest();
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 3, "0");
            TopicAdmin.ensureTopics(kafka);
            try (ApplicationContext memory = ApplicationContext.builder().properties(Map.of(
                         "agentbus.service", MemoryServiceApplication.SERVICE,
                         "agentbus.kafka.bootstrap-servers", broker.bootstrapServers(),
                         "agentbus.kafka.partitions", 3,
                         "agentbus.memory.distill.enabled", true,
                         "agentbus.memory.distill.rebuild-concurrency", concurrency,
                         "llm.url", model.baseUrl(),
                         "llm.model", model.modelName())).start();
                 KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.producer("bench-log"));
                 CompactedTopicView<InsightSet> sets = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(),
                         "bench-insights", bytes -> EventCodec.decodeValue(bytes, InsightSet.class)).start()) {

                System.out.println("distillation: batch  turns  seconds  turns/s");
                double[] rates = new double[batches];
                int written = 0;
                for (int b = 0; b < batches; b++) {
                    for (int n = 0; n < batch; n++) {
                        model.replyText(extraction(written + n));
                    }
                    long start = System.nanoTime();
                    List<long[]> last = writeTurns(producer, written, batch, users);
                    written += batch;
                    int total = written;
                    await(sets, users, s -> distilledTurns(s) >= total / users);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    rates[b] = batch / seconds;
                    System.out.printf(Locale.ROOT, "              %5d  %5d  %7.2f  %7.0f%n", b + 1, batch, seconds,
                            rates[b]);
                }
                System.out.printf(Locale.ROOT, "distillation median: %.0f turns/s%n%n", Stats.median(rates));

                System.out.printf(Locale.ROOT, "rebuild of %,d turns (%d users, %d extraction calls at once):%n",
                        written, users, concurrency);
                double[] times = new double[rebuilds];
                for (int r = 0; r < rebuilds; r++) {
                    for (int n = 0; n < written; n++) {
                        model.replyText(extraction(n + r));
                    }
                    String id = UUID.randomUUID().toString();
                    long start = System.nanoTime();
                    producer.send(new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), "*", EventCodec.encodeValue(
                            new InsightCommand.RequestRebuild(id, "*", "bench")))).get();
                    await(sets, users, s -> id.equals(s.lastRebuildId()));
                    times[r] = (System.nanoTime() - start) / 1e9;
                    System.out.printf(Locale.ROOT, "  run %d: %6.2f s (%,.0f turns/s)%n", r + 1, times[r],
                            written / times[r]);
                }
                System.out.printf(Locale.ROOT, "rebuild median: %.2f s for %,d turns%n", Stats.median(times),
                        written);
                System.out.println(Stats.machine());
            }
        }
    }

    /** Each turn says something a little different, so the sets grow (up to the 500-insight cap per user). */
    private static String extraction(int n) {
        return "{\"insights\":[{\"category\":\"project\",\"text\":\"works on project " + (n % 997)
                + "\",\"confidence\":0.7},{\"category\":\"preference\",\"text\":\"prefers style " + (n % 13)
                + "\",\"confidence\":0.6}]}";
    }

    /** Turns {@code from} … {@code from + count - 1}: turn t is user t % users, session t / (10 users). */
    private static List<long[]> writeTurns(KafkaProducer<String, byte[]> producer, int from, int count, int users)
            throws Exception {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (int t = from; t < from + count; t++) {
            String user = "user-" + (t % users);
            int perUser = t / users;
            String session = user + "-session-" + (perUser / 10);
            long seq = 1 + (perUser % 10) * 3L;
            if (perUser % 10 == 0) {
                sent.add(producer.send(Records.event(envelope(session, user, seq,
                        new SessionEvent.SessionCreated("bench")), "bench", TraceHeaders.newTrace())));
            }
            sent.add(producer.send(Records.event(envelope(session, user, seq + 1,
                    new SessionEvent.UserMessagePosted("I work on project " + t + " and like style " + (t % 13))),
                    "bench", TraceHeaders.newTrace())));
            sent.add(producer.send(Records.event(envelope(session, user, seq + 2,
                    new SessionEvent.ModelCallCompleted("r" + t, "m", "Noted, project " + t + ".", null, List.of(),
                            null, "stop")), "bench", TraceHeaders.newTrace())));
            sent.add(producer.send(Records.event(envelope(session, user, seq + 3,
                    new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "Noted.", null)), "bench",
                    TraceHeaders.newTrace())));
        }
        for (var f : sent) {
            f.get();
        }
        return List.of();
    }

    private static EventEnvelope envelope(String session, String user, long seq, SessionEvent event) {
        return new EventEnvelope(UUID.randomUUID().toString(), session, seq, Instant.now(), null, user, event);
    }

    private static long distilledTurns(InsightSet set) {
        // Sessions hold 10 turns at seqs 4, 7 … 31: a turn's end seq tells how many of its session were done.
        return set.distilledUpTo().values().stream().mapToLong(seq -> (seq - 1) / 3).sum();
    }

    private static void await(CompactedTopicView<InsightSet> sets, int users, Predicate<InsightSet> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + 3_600_000_000_000L;
        while (System.nanoTime() < deadline) {
            int ready = 0;
            for (int u = 0; u < users; u++) {
                if (sets.get("user-" + u).filter(done).isPresent()) {
                    ready++;
                }
            }
            if (ready == users) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the memory-service did not finish within an hour");
    }

    private static int intArg(String[] args, String name, int dflt) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return dflt;
    }
}
