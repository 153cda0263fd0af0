package dev.agentbus.gateway.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for the orchestrator and the sandbox-worker, which the gateway module cannot depend on: it reads the
 * real {@code session-inputs} topic and answers each {@code run_user_tool.v1} on the real {@code session-events}
 * topic the way those two do — {@code tool_call.requested.v1} with {@code byUser}, then the tool's
 * {@code tool_call.completed.v1} — keeping each session's files in a map instead of a workspace. Per session it can
 * also reject the input (as the orchestrator does while a turn runs), stay silent, or alter a download.
 */
final class FakeOrchestratorAndWorker implements AutoCloseable {
    enum Mode { ANSWER, REJECT, SILENT, ALTER_DOWNLOADS }

    final Map<String, Map<String, byte[]>> files = new ConcurrentHashMap<>();
    final List<InputEnvelope> inputs = new CopyOnWriteArrayList<>();
    private final Map<String, Mode> modes = new ConcurrentHashMap<>();
    private final Map<String, Long> seqs = new ConcurrentHashMap<>();
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    FakeOrchestratorAndWorker(KafkaSettings kafka) {
        producer = new KafkaProducer<>(kafka.producer("fake-orchestrator"));
        consumer = new KafkaConsumer<>(kafka.consumer("fake-orchestrator", "fake-orchestrator"));
        consumer.subscribe(List.of(Topics.SESSION_INPUTS.name()));
        thread = Thread.ofPlatform().name("fake-orchestrator").start(this::loop);
    }

    void mode(String sessionId, Mode mode) {
        modes.put(sessionId, mode);
    }

    /** Appends an event with the session's next seq, as the orchestrator would. */
    synchronized void append(String sessionId, SessionEvent event) {
        long seq = seqs.merge(sessionId, 1L, Long::sum);
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), sessionId, seq, Instant.now(), null,
                "local", event);
        try {
            producer.send(Records.event(e, "test", TraceHeaders.newTrace())).get();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private void loop() {
        while (running) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                InputEnvelope in = EventCodec.decodeInput(r.value());
                inputs.add(in);
                if (in.input() instanceof SessionInput.RunUserTool call) {
                    answer(in, call);
                }
            }
        }
        consumer.close();
    }

    private void answer(InputEnvelope in, SessionInput.RunUserTool call) {
        String session = in.sessionId();
        Mode mode = modes.getOrDefault(session, Mode.ANSWER);
        if (mode == Mode.SILENT) {
            return;
        }
        if (mode == Mode.REJECT) {
            append(session, new SessionEvent.InputRejected(in.id(), "run_user_tool.v1",
                    "a turn is running; " + call.name() + " can run once it has ended"));
            return;
        }
        append(session, new SessionEvent.ToolCallRequested(call.callId(), call.name(), call.arguments(), null, true));
        JsonNode args;
        try {
            args = Json.mapper().readTree(call.arguments());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        String path = args.path("path").asText();
        Map<String, byte[]> workspace = files.computeIfAbsent(session, s -> new ConcurrentHashMap<>());
        SessionEvent.ToolCallCompleted result;
        if (path.startsWith("/") || path.contains("..")) {
            String why = "path escapes the workspace: " + path;
            result = new SessionEvent.ToolCallCompleted(call.callId(), false, "", "refused: " + why, null, false, 1,
                    false, null, null, why);
        } else if (call.name().equals("upload")) {
            byte[] content = Base64.getDecoder().decode(args.path("content_base64").asText());
            workspace.put(path, content);
            result = new SessionEvent.ToolCallCompleted(call.callId(), true, "uploaded " + path + " ("
                    + content.length + " bytes)", null, null, false, 1, false);
        } else if (!workspace.containsKey(path)) {
            result = new SessionEvent.ToolCallCompleted(call.callId(), false, "", "file not found: " + path, null,
                    false, 1, false);
        } else {
            byte[] content = workspace.get(path);
            String base64 = Base64.getEncoder().encodeToString(content);
            if (mode == Mode.ALTER_DOWNLOADS) {
                base64 = base64.substring(0, base64.length() - 8) + "AAAAAAAA"; // as secret masking could
            }
            result = new SessionEvent.ToolCallCompleted(call.callId(), true, "sha256:" + sha256(content) + " bytes:"
                    + content.length + "\n" + base64, null, null, false, 1, false);
        }
        append(session, result);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
        producer.close();
    }
}
