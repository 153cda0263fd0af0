package dev.agentbus.gateway.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for the orchestrator, the sandbox-worker and the memory-service, which the gateway module may not depend
 * on, on the real topics: it reads {@code session-inputs} and {@code memory-commands} and answers as those services
 * do, with the wire shapes they use — a session created, a chat turn with streamed tokens, each person-run tool
 * requested and completed (files kept in a map; {@code shell} streams its output before its result, as the worker
 * does), a notification recorded, a memory document written. What the tools answer is the worker's text format
 * (docs/tools.md), so the gateway's reading of it is tested; the tools themselves are tested in the sandbox-worker.
 */
public final class FakeAgentHost implements AutoCloseable {
    public static final String REPLY = "Hello from the agent.";

    public final Map<String, Map<String, byte[]>> files = new ConcurrentHashMap<>();
    public final List<InputEnvelope> inputs = new CopyOnWriteArrayList<>();
    private final Map<String, Long> seqs = new ConcurrentHashMap<>();
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private final Map<String, Long> memoryVersions = new ConcurrentHashMap<>();
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;
    /** Sessions whose tool calls get no answer, as when no worker runs. */
    public final java.util.Set<String> silent = ConcurrentHashMap.newKeySet();

    public FakeAgentHost(KafkaSettings kafka) {
        producer = new KafkaProducer<>(kafka.producer("fake-agent-host"));
        consumer = new KafkaConsumer<>(kafka.consumer("fake-agent-host", "fake-agent-host"));
        consumer.subscribe(List.of(Topics.SESSION_INPUTS.name(), Topics.MEMORY_COMMANDS.name()));
        thread = Thread.ofPlatform().name("fake-agent-host").start(this::loop);
    }

    /** Appends an event with the session's next seq, as the orchestrator would. */
    public synchronized long append(String sessionId, String causationId, SessionEvent event) {
        long seq = seqs.merge(sessionId, 1L, Long::sum);
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), sessionId, seq, Instant.now(), causationId,
                owners.getOrDefault(sessionId, "local"), event);
        send(Records.event(e, "test", TraceHeaders.newTrace()));
        return seq;
    }

    /** A session of {@code user}'s, created as the orchestrator would create it. */
    public void createSession(String sessionId, String user) {
        owners.put(sessionId, user);
        append(sessionId, null, new SessionEvent.SessionCreated("ws"));
    }

    private void chunk(String sessionId, StreamChunk.Kind kind, String ref, String text) {
        send(Records.streamChunk(new StreamChunk(sessionId, kind, ref, text, Instant.now()), TraceHeaders.newTrace()));
    }

    private void send(ProducerRecord<String, byte[]> record) {
        try {
            producer.send(record).get();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private void loop() {
        while (running) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                if (r.topic().equals(Topics.MEMORY_COMMANDS.name())) {
                    remember(EventCodec.decodeMemoryCommand(r.value()));
                    continue;
                }
                InputEnvelope in = EventCodec.decodeInput(r.value());
                inputs.add(in);
                switch (in.input()) {
                    case SessionInput.CreateSession c -> {
                        owners.put(in.sessionId(), in.userId());
                        append(in.sessionId(), in.id(), new SessionEvent.SessionCreated("New session"));
                    }
                    case SessionInput.PostUserMessage m -> chat(in);
                    case SessionInput.RunUserTool call -> {
                        if (!silent.contains(in.sessionId())) {
                            answer(in, call);
                        }
                    }
                    case SessionInput.PostNotification n -> append(in.sessionId(), in.id(),
                            new SessionEvent.NotificationPosted(n.message(), in.userId()));
                    default -> {
                        // not needed by these tests
                    }
                }
            }
        }
        consumer.close();
    }

    private void chat(InputEnvelope in) {
        String session = in.sessionId();
        String request = UUID.randomUUID().toString();
        append(session, in.id(), new SessionEvent.UserMessagePosted(((SessionInput.PostUserMessage) in.input()).text()));
        append(session, in.id(), new SessionEvent.ModelCallStarted(request, 1));
        chunk(session, StreamChunk.Kind.TOKEN, request, "Hello ");
        chunk(session, StreamChunk.Kind.TOKEN, request, "from ");
        append(session, in.id(), new SessionEvent.ModelCallCompleted(request, "m", REPLY, null, List.of(),
                new TokenUsage(10, 5, 15), "stop"));
        append(session, in.id(), new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, REPLY, null));
    }

    private void remember(MemoryCommand command) {
        long version = memoryVersions.merge(command.userId(), 1L, Long::sum);
        String content = command instanceof MemoryCommand.SetMemory set ? set.content() : "";
        MemoryDocument doc = new MemoryDocument(command.userId(), content, version, Instant.now(),
                command.commandId());
        send(new ProducerRecord<>(Topics.USER_MEMORY.name(), command.userId(), EventCodec.encodeValue(doc)));
    }

    private void answer(InputEnvelope in, SessionInput.RunUserTool call) {
        String session = in.sessionId();
        append(session, in.id(), new SessionEvent.ToolCallRequested(call.callId(), call.name(), call.arguments(),
                null, true));
        JsonNode args;
        try {
            args = Json.mapper().readTree(call.arguments());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        String path = args.path("path").asText("");
        Map<String, byte[]> workspace = files.computeIfAbsent(session, s -> new ConcurrentHashMap<>());
        SessionEvent.ToolCallCompleted result;
        if (path.startsWith("/") || path.contains("..")) {
            String why = "'" + path + "' is outside the workspace";
            result = failed(call, "refused: " + why, why);
        } else {
            result = switch (call.name()) {
                case "upload" -> {
                    byte[] content = Base64.getDecoder().decode(args.path("content_base64").asText());
                    workspace.put(path, content);
                    yield ok(call, "uploaded " + path + " (" + content.length + " bytes)", null);
                }
                case "write" -> {
                    workspace.put(path, args.path("content").asText().getBytes(StandardCharsets.UTF_8));
                    yield ok(call, "created " + path, "--- /dev/null\n+++ b/" + path + "\n");
                }
                case "download" -> workspace.containsKey(path)
                        ? ok(call, "sha256:" + sha256(workspace.get(path)) + " bytes:" + workspace.get(path).length
                        + "\n" + Base64.getEncoder().encodeToString(workspace.get(path)), null)
                        : failed(call, "file not found: " + path, null);
                case "delete" -> workspace.remove(path) != null ? ok(call, "deleted " + path, null)
                        : failed(call, "no such file or directory: " + path, null);
                case "ls" -> ok(call, listing(workspace), null);
                case "shell" -> shell(session, call, args.path("command").asText());
                case "vm_input" -> ok(call, "typed " + args.path("data").asText().length() + " characters"
                        + (args.path("enter").asBoolean(true) ? " and Enter" : "") + " into agentbus:. Its screen "
                        + "now:\n$ " + args.path("data").asText() + "\n", null);
                case "vm_keys" -> ok(call, "pressed " + String.join(" ", Json.mapper().convertValue(
                        args.path("keys"), String[].class)) + " in agentbus:. Its screen now:\n$\n", null);
                case "tmux_new" -> ok(call, "started " + args.path("command").asText() + " in pane agentbus:1.0 "
                        + "(%1); read it with tmux_read. Its screen now:\nName? \n", null);
                case "restart_terminal" -> ok(call, "The terminal was restarted: this is a fresh bubblewrap "
                        + "sandbox.\n", null);
                default -> failed(call, "unknown tool " + call.name(), null);
            };
        }
        append(session, in.id(), result);
    }

    /** The worker's ls format: sorted, directories with a trailing slash. */
    private static String listing(Map<String, byte[]> workspace) {
        TreeMap<String, Boolean> top = new TreeMap<>();
        for (String path : workspace.keySet()) {
            int slash = path.indexOf('/');
            top.put(slash < 0 ? path : path.substring(0, slash + 1), true);
        }
        return top.isEmpty() ? ".: empty directory" : String.join("\n", top.keySet()) + "\n";
    }

    /** Streams the command's "output" in two pieces before its result, then ends it with the exit code line. */
    private SessionEvent.ToolCallCompleted shell(String session, SessionInput.RunUserTool call, String command) {
        if (command.startsWith("sleep")) {
            return new SessionEvent.ToolCallCompleted(call.callId(), false, "started\n", "command timed out after 1 s; "
                    + "it and every process it started were killed", null, false, 1000, false);
        }
        chunk(session, StreamChunk.Kind.OUTPUT, call.callId(), "line one\nline ");
        chunk(session, StreamChunk.Kind.OUTPUT, call.callId(), "two\n");
        pause(); // output and results travel on different topics: give the output a head start, as a real command's
        return ok(call, "line one\nline two\nexit code: 0", null);
    }

    private static void pause() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static SessionEvent.ToolCallCompleted ok(SessionInput.RunUserTool call, String output, String diff) {
        return new SessionEvent.ToolCallCompleted(call.callId(), true, output, null, diff, false, 1, false);
    }

    private static SessionEvent.ToolCallCompleted failed(SessionInput.RunUserTool call, String error,
                                                         String refusal) {
        return new SessionEvent.ToolCallCompleted(call.callId(), false, "", error, null, false, 1, false, null,
                null, refusal);
    }

    public static String sha256(byte[] bytes) {
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
