package dev.agentbus.bench.steps;

import dev.agentbus.bench.Stats;
import dev.agentbus.eventbus.KafkaSettings;
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

import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of the ramp on the full stack: {@code sessions} sessions at once, each given one message; the scripted
 * model answers every call with one call of the tool, so each turn runs {@code steps} steps and ends at the
 * iteration cap. The steps are read back from {@code agentbus.session-events}.
 */
final class StackRun {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    private final Standalone stack;
    private final ScriptedModelServer model;
    private final int steps;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    StackRun(Standalone stack, ScriptedModelServer model, int steps) {
        this.stack = stack;
        this.model = model;
        this.steps = steps;
    }

    /**
     * @param firstToken the model's delay before its first token; with a delay it also streams slowly (about 50
     *                   tokens per second), as a local model on a modest GPU does
     */
    Result run(ToolUnderTest tool, int sessions, Duration firstToken) throws Exception {
        model.reset();
        ScriptedReply reply = ScriptedReply.toolCalls(List.of(ScriptedToolCall.of(tool.name(), tool.argumentsJson())));
        if (!firstToken.isZero()) {
            // about 4 characters per token, sent 4 characters at a time: one token every 20 ms is 50 tokens/s
            reply = reply.withDelay(firstToken).withChunkDelay(Duration.ofMillis(20));
        }
        for (int i = 0; i < sessions * steps; i++) {
            model.reply(reply);
        }
        try (KafkaConsumer<String, byte[]> events = endOfLog()) {
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long heapBefore = rt.totalMemory() - rt.freeMemory();
            long cpuBefore = processCpuNanos();
            long machineBefore = MachineCpu.busyTicks();
            long machineTotalBefore = MachineCpu.totalTicks();
            long start = System.nanoTime();

            List<String> ids = startSessions(tool, sessions);
            Map<String, List<EventEnvelope>> bySession = new HashMap<>();
            int unfinished = awaitEnded(events, new HashSet<>(ids), Duration.ofMinutes(5 + sessions / 50), bySession);

            double wallSeconds = (System.nanoTime() - start) / 1e9;
            double cpuCores = (processCpuNanos() - cpuBefore) / 1e9 / wallSeconds;
            double machineBusy = MachineCpu.share(machineBefore, machineTotalBefore);
            long rss = Rss.bytes();
            System.gc();
            long heapAfter = rt.totalMemory() - rt.freeMemory();
            return Result.of(tool.name(), sessions, firstToken, bySession, wallSeconds, cpuCores, machineBusy, rss,
                    (heapAfter - heapBefore) / (double) sessions / 1024, unfinished);
        }
    }

    /**
     * New sessions one after another, as people start them, each running one {@code tool} call and then ending its
     * turn: the first command's own time as the worker measured it ({@code durationMs}, which includes getting the
     * session a sandbox). Between sessions it waits {@code gap}, so a warm pool has time to refill.
     *
     * @return the first call's time of each session, in milliseconds
     */
    double[] firstCommands(ToolUnderTest tool, int sessions, Duration gap) throws Exception {
        model.reset();
        double[] ms = new double[sessions];
        try (KafkaConsumer<String, byte[]> events = endOfLog()) {
            for (int i = 0; i < sessions; i++) {
                model.reply(ScriptedReply.toolCalls(List.of(ScriptedToolCall.of(tool.name(), tool.argumentsJson()))));
                model.replyText("done");
                String id = create("first command " + i);
                post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"run one command\"}");
                Map<String, List<EventEnvelope>> log = new HashMap<>();
                if (awaitEnded(events, Set.of(id), Duration.ofMinutes(2), log) > 0) {
                    throw new IllegalStateException("the turn of session " + id + " did not end");
                }
                ms[i] = log.get(id).stream().map(EventEnvelope::event)
                        .filter(e -> e instanceof SessionEvent.ToolCallCompleted)
                        .mapToDouble(e -> ((SessionEvent.ToolCallCompleted) e).durationMs()).findFirst()
                        .orElseThrow(() -> new IllegalStateException("session " + id + " ran no tool"));
                Thread.sleep(gap.toMillis());
            }
        }
        return ms;
    }

        /** A consumer of the whole session log, positioned at its end: it sees only this run's events. */
    private KafkaConsumer<String, byte[]> endOfLog() {
        KafkaSettings kafka = new KafkaSettings(stack.bootstrapServers(), 1, "step-bench");
        KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(null, "step-bench"));
        List<TopicPartition> partitions = c.partitionsFor(Topics.SESSION_EVENTS.name()).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        c.assign(partitions);
        c.seekToEnd(partitions);
        partitions.forEach(c::position); // resolve the end now, before this run writes anything
        return c;
    }

    private List<String> startSessions(ToolUnderTest tool, int sessions) throws Exception {
        // Many at once, as a team would: a virtual thread per session, each creating its session and sending one
        // message.
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> started = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                int n = i;
                started.add(clients.submit(() -> {
                    String id = create("step bench " + tool.name() + " " + n);
                    post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"use " + tool.name() + " until stopped\"}");
                    return id;
                }));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> f : started) {
                ids.add(f.get());
            }
            return ids;
        }
    }

    private String create(String title) throws IOException, InterruptedException {
        String body = post("/api/v1/sessions", "{\"title\":\"" + title + "\"}");
        Matcher m = ID.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("no session id in " + body);
        }
        return m.group(1);
    }

    private String post(String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
                        .header("Authorization", "Bearer " + StepBench.TOKEN)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /**
     * Collects the events of each session into {@code bySession} until every session's turn has ended, or the time
     * is up: a run that cannot finish is a result too (how many turns did not end), not the end of the benchmark.
     *
     * @return how many turns had not ended when the time was up
     */
    private static int awaitEnded(KafkaConsumer<String, byte[]> c, Set<String> ids, Duration timeout,
                                  Map<String, List<EventEnvelope>> bySession) {
        Set<String> open = new HashSet<>(ids);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                if (!ids.contains(r.key())) {
                    continue;
                }
                EventEnvelope e = EventCodec.decodeEvent(r.value());
                bySession.computeIfAbsent(e.sessionId(), k -> new ArrayList<>()).add(e);
                if (e.event() instanceof SessionEvent.TurnEnded) {
                    open.remove(e.sessionId());
                }
            }
        }
        if (!open.isEmpty()) {
            System.out.println(open.size() + " of " + ids.size() + " turns did not end within " + timeout);
        }
        return open.size();
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** One line of the ramp. Times in milliseconds. */
    record Result(String tool, int sessions, Duration firstToken, double[] stepMs, double[] toolMs,
                  double wallSeconds, double stepsPerSecond, double cpuCores, double machineBusy, long rssBytes,
                  double heapPerSessionKiB, Map<String, double[]> transitions, int unfinished) {

        static Result of(String tool, int sessions, Duration firstToken, Map<String, List<EventEnvelope>> bySession,
                         double wallSeconds, double cpuCores, double machineBusy, long rss, double heapPerSession,
                         int unfinished) {
            List<Double> steps = new ArrayList<>();
            List<Double> tools = new ArrayList<>();
            Map<String, List<Double>> between = new java.util.TreeMap<>();
            for (List<EventEnvelope> log : bySession.values()) {
                Instant previous = null;
                EventEnvelope before = null;
                for (EventEnvelope e : log) {
                    if (before != null && before.seq() + 1 == e.seq()) {
                        between.computeIfAbsent(EventCodec.typeOf(before.event()) + " → "
                                + EventCodec.typeOf(e.event()), k -> new ArrayList<>())
                                .add(Duration.between(before.time(), e.time()).toNanos() / 1e6);
                    }
                    before = e;
                    if (e.event() instanceof SessionEvent.ToolCallRequested) {
                        if (previous != null) {
                            steps.add(Duration.between(previous, e.time()).toNanos() / 1e6);
                        }
                        previous = e.time();
                    } else if (e.event() instanceof SessionEvent.ToolCallCompleted done) {
                        tools.add((double) done.durationMs());
                    }
                }
            }
            double[] stepMs = steps.stream().mapToDouble(Double::doubleValue).toArray();
            double[] toolMs = tools.stream().mapToDouble(Double::doubleValue).toArray();
            int allSteps = tools.size();
            Map<String, double[]> transitions = new java.util.LinkedHashMap<>();
            between.forEach((k, v) -> transitions.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
            return new Result(tool, sessions, firstToken, stepMs, toolMs, wallSeconds, allSteps / wallSeconds,
                    cpuCores, machineBusy, rss, heapPerSession, transitions, unfinished);
        }

        double p50() {
            return Stats.percentile(stepMs, 50);
        }

        double p99() {
            return Stats.percentile(stepMs, 99);
        }

        String label() {
            return firstToken.isZero() ? tool : tool + ", model " + firstToken.toMillis() + " ms to first token";
        }

        String summary() {
            return String.format(Locale.ROOT, "%s, %d sessions: step p50 %.1f ms, p99 %.1f ms, %.1f steps/s%s",
                    label(), sessions, p50(), p99(), stepsPerSecond,
                    unfinished == 0 ? "" : " (" + unfinished + " turns did not end in time)");
        }
    }

    /** Resident memory of this JVM (the whole stack runs in it). */
    static final class Rss {
        private Rss() {
        }

        static long bytes() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // not Linux: unknown
            }
            return -1;
        }
    }

    /** The share of the whole machine's CPU that was busy (sandboxes and the Docker engine included). */
    static final class MachineCpu {
        private static long[] lastTicks = new long[2];

        private MachineCpu() {
        }

        static long busyTicks() {
            return read()[0];
        }

        static long totalTicks() {
            return read()[1];
        }

        static double share(long busyBefore, long totalBefore) {
            long[] now = read();
            long total = now[1] - totalBefore;
            return total <= 0 ? 0 : (now[0] - busyBefore) / (double) total;
        }

        /** {busy, total} jiffies from the first line of /proc/stat. */
        private static long[] read() {
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < f.length; i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
                lastTicks = new long[]{total - idle, total};
            } catch (IOException | RuntimeException e) {
                // not Linux: keep the last reading
            }
            return lastTicks;
        }
    }
}
