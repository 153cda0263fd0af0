package dev.agentbus.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.bench.Stats;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.standalone.Standalone;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak (issue 9): many sessions kept busy for minutes on the whole standalone stack, then the log reconciled
 * against the workspaces and the read models ({@link Reconciliation}): no event lost, no seq gap, no tool run twice.
 *
 * <pre>bin/bench SoakBench [--sessions 200] [--minutes 10] [--backend auto]</pre>
 *
 * The scripted model answers whichever session asks next: a {@code shell} command that appends the step's own
 * number to {@code soak.log}, a {@code write}, an {@code ls}, and every fifth reply a final answer, which ends that
 * session's turn; the driver then sends the session its next message, until the time is up. Exits 1 when any
 * reconciliation count is not 0.
 */
public final class SoakBench {
    static final String TOKEN = "soak-bench-token";

    private SoakBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            given.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int sessions = Integer.parseInt(given.getOrDefault("sessions", "200"));
        Duration length = Duration.ofMinutes(Long.parseLong(given.getOrDefault("minutes", "10")));
        String backend = given.getOrDefault("backend", "auto");
        dev.agentbus.bench.steps.Quiet.logs();
        Path data = Files.createTempDirectory("agentbus-soak");
        try (ScriptedModelServer model = ScriptedModelServer.start().keepOnlyTheLastRequest();
             Standalone stack = new Standalone(data, 0)) {
            stack.start(Map.of("llm.url", model.baseUrl(), "agentbus.gateway.port", "-1",
                    "agentbus.gateway.token", TOKEN, "agentbus.agent.max-iterations", "50",
                    // A benchmark scripts the same kind of call over and over, which the loop guards would (rightly) stop.
                    "agentbus.loop-guard.repeated-calls", "0", "agentbus.loop-guard.no-progress", "0",
                    "agentbus.sandbox.backend", backend, "agentbus.sandbox.max-concurrent-calls", "16"));
            Reconciliation result = new SoakBench.Run(stack, model, data).run(sessions, length);
            System.out.println(result.clean() ? "reconciled: every count is 0" : "RECONCILIATION FAILED: " + result);
            System.exit(result.clean() ? 0 : 1);
        }
    }

    /** One soak: the driver, the model's script, the reading back. */
    static final class Run {
        private final Standalone stack;
        private final ScriptedModelServer model;
        private final Path data;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        private final AtomicLong steps = new AtomicLong();
        private final Map<String, Integer> messagesSent = new ConcurrentHashMap<>();
        private final Map<String, List<EventEnvelope>> logs = new HashMap<>();

        Run(Standalone stack, ScriptedModelServer model, Path data) {
            this.stack = stack;
            this.model = model;
            this.data = data;
        }

        Reconciliation run(int sessions, Duration length) throws Exception {
            long rssBefore = rss();
            Thread feeder = Thread.ofPlatform().daemon().name("soak-model-script").start(this::feed);
            try (KafkaConsumer<String, byte[]> events = endOfLog();
                 ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    ids.add(create("soak " + i));
                }
                ids.forEach(id -> clients.submit(() -> message(id)));
                Set<String> mine = Set.copyOf(ids);
                Set<String> inTurn = ConcurrentHashMap.newKeySet();
                inTurn.addAll(ids);
                Instant start = Instant.now();
                Instant end = start.plus(length);
                List<double[]> windows = new ArrayList<>();
                Map<String, Instant> lastRequest = new HashMap<>();
                List<Double> window = new ArrayList<>();
                Instant windowEnd = start.plus(Duration.ofMinutes(1));
                Instant giveUp = end.plus(Duration.ofMinutes(3));
                while (!(Instant.now().isAfter(end) && inTurn.isEmpty()) && Instant.now().isBefore(giveUp)) {
                    for (ConsumerRecord<String, byte[]> r : events.poll(Duration.ofMillis(200))) {
                        if (!mine.contains(r.key())) {
                            continue;
                        }
                        EventEnvelope e = EventCodec.decodeEvent(r.value());
                        logs.computeIfAbsent(e.sessionId(), k -> new ArrayList<>()).add(e);
                        if (e.event() instanceof SessionEvent.ToolCallRequested) {
                            Instant previous = lastRequest.put(e.sessionId(), e.time());
                            if (previous != null) {
                                window.add(Duration.between(previous, e.time()).toNanos() / 1e6);
                            }
                        } else if (e.event() instanceof SessionEvent.TurnEnded) {
                            lastRequest.remove(e.sessionId());
                            if (Instant.now().isBefore(end)) {
                                clients.submit(() -> message(e.sessionId()));
                            } else {
                                inTurn.remove(e.sessionId());
                            }
                        }
                    }
                    if (Instant.now().isAfter(windowEnd)) {
                        windows.add(window.stream().mapToDouble(Double::doubleValue).toArray());
                        window = new ArrayList<>();
                        windowEnd = windowEnd.plus(Duration.ofMinutes(1));
                    }
                }
                if (!window.isEmpty()) {
                    windows.add(window.stream().mapToDouble(Double::doubleValue).toArray());
                }
                feeder.interrupt();
                double seconds = Duration.between(start, Instant.now()).toNanos() / 1e9;
                long allSteps = logs.values().stream().flatMap(List::stream)
                        .filter(e -> e.event() instanceof SessionEvent.ToolCallCompleted).count();
                Reconciliation result = Reconciliation.of(logs, messagesSent, workspaceRuns(ids), readModels(ids));
                report(sessions, length, windows, allSteps / seconds, rssBefore, inTurn.size(), result);
                return result;
            }
        }

        /** Keeps the model's script ahead of the sessions: tool calls, and every fifth reply an answer. */
        private void feed() {
            long n = 0;
            while (!Thread.currentThread().isInterrupted()) {
                while (model.remainingSteps() < 400) {
                    n++;
                    long step = steps.incrementAndGet();
                    model.reply(switch ((int) (n % 5)) {
                        case 1 -> ScriptedReply.toolCalls(List.of(ScriptedToolCall.of("shell",
                                "{\"command\":\"echo " + step + " >> soak.log\"}")));
                        case 2 -> ScriptedReply.toolCalls(List.of(ScriptedToolCall.of("write",
                                "{\"path\":\"step-" + step + ".txt\",\"content\":\"" + step + "\\n\"}")));
                        case 3 -> ScriptedReply.toolCalls(List.of(ScriptedToolCall.of("ls", "{}")));
                        case 4 -> ScriptedReply.toolCalls(List.of(ScriptedToolCall.of("shell",
                                "{\"command\":\"echo " + step + " >> soak.log\"}")));
                        default -> ScriptedReply.text("turn " + step + " done");
                    });
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private Map<String, List<String>> workspaceRuns(List<String> ids) throws Exception {
            Map<String, List<String>> runs = new HashMap<>();
            for (String id : ids) {
                Path log = data.resolve("workspaces").resolve("local").resolve(id).resolve("soak.log");
                runs.put(id, Files.exists(log) ? Files.readAllLines(log) : List.of());
            }
            return runs;
        }

        /** The read models' lastSeq per session, once they have caught up with the log (at most 60 s). */
        private Map<String, Long> readModels(List<String> ids) throws Exception {
            Map<String, Long> logSeq = new HashMap<>();
            logs.forEach((id, events) -> logSeq.put(id, events.getLast().seq()));
            Map<String, Long> seq = new HashMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            do {
                seq.clear();
                for (int offset = 0; offset < ids.size(); offset += 500) {
                    JsonNode page = Json.mapper().readTree(get("/api/v1/read-models/sessions?limit=500&offset=" + offset));
                    page.forEach(s -> seq.put(s.get("sessionId").asText(), s.get("lastSeq").asLong()));
                }
                if (seq.entrySet().containsAll(logSeq.entrySet())) {
                    break;
                }
                Thread.sleep(500);
            } while (System.nanoTime() < deadline);
            return seq;
        }

        private static void report(int sessions, Duration length, List<double[]> windows, double stepsPerSecond,
                                   long rssBefore, int unfinished, Reconciliation r) {
            System.out.printf(Locale.ROOT, "%nSoakBench: %d sessions for %d minutes, %s%n", sessions,
                    length.toMinutes(), Stats.machine());
            System.out.println("\n| minute | steps | step p50 ms | step p99 ms |\n|---|---|---|---|");
            for (int i = 0; i < windows.size(); i++) {
                double[] w = windows.get(i);
                System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %.1f |%n", i + 1, w.length,
                        Stats.percentile(w, 50), Stats.percentile(w, 99));
            }
            System.out.printf(Locale.ROOT, "%nsteps/s over the run: %.1f; RSS %d MiB at start, %d MiB at the end; "
                    + "turns not ended in time: %d%n", stepsPerSecond, rssBefore >> 20, rss() >> 20, unfinished);
            System.out.println("\n| reconciliation | count |\n|---|---|");
            System.out.println("| seq gaps | " + r.seqGaps() + " |");
            System.out.println("| seq repeats | " + r.seqRepeats() + " |");
            System.out.println("| tool requests without exactly one result | " + r.requestsWithoutOneResult() + " |");
            System.out.println("| messages sent but not in the log | " + r.messagesMissing() + " |");
            System.out.println("| commands run twice (workspaces) | " + r.commandsRunTwice() + " |");
            System.out.println("| commands run but not recorded | " + r.commandsRunUnrecorded() + " |");
            System.out.println("| results recorded but not run | " + r.resultsNotRun() + " |");
            System.out.println("| read models behind the log | " + r.readModelsBehind() + " |");
        }

        /**
         * The session's next message. The gateway answers from its own view of the log, which can trail the
         * event the driver just read by milliseconds: a 409 "still running" is asked again, as a person would.
         */
        private void message(String id) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                try {
                    post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"keep going\"}");
                    messagesSent.merge(id, 1, Integer::sum);
                    return;
                } catch (Exception e) {
                    if (!e.getMessage().contains(" 409:") || System.nanoTime() > deadline) {
                        System.err.println("message to " + id + " failed: " + e.getMessage());
                        return;
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private String create(String title) throws Exception {
            return Json.mapper().readTree(post("/api/v1/sessions", "{\"title\":\"" + title + "\"}"))
                    .get("id").asText();
        }

        private String post(String path, String json) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
                    .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
            }
            return r.body();
        }

        private String get(String path) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(60)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }

        /** A reader of the whole session log from its current end. */
        private KafkaConsumer<String, byte[]> endOfLog() {
            KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(
                    new KafkaSettings(stack.bootstrapServers(), 1, "soak").consumer(null, "soak-bench"));
            List<TopicPartition> partitions = c.partitionsFor(Topics.SESSION_EVENTS.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            c.assign(partitions);
            c.seekToEnd(partitions);
            partitions.forEach(c::position);
            return c;
        }

        private static long rss() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            } catch (Exception e) {
                // not Linux
            }
            return -1;
        }
    }
}
