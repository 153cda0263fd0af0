package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HTTP server that speaks the OpenAI chat completions protocol and answers from a script.
 *
 * <p>It is the project's one allowed test double for the model: instead of mocking the client, tests
 * point real code (in this JVM or in a service running as a separate process) at {@link #baseUrl()},
 * so the request and response bytes, streaming, retries and time-outs are all exercised for real.
 *
 * <p>The script is one FIFO queue of steps: {@link #replyText}, {@link #replyToolCall},
 * {@link #replyToolCalls}, {@link #replyWithReasoning}, {@link #reply}, {@link #failNext} and, for
 * imitating servers that bend the protocol, {@link #replyRaw} and {@link #replyRawStream} each append
 * one step, and each {@code POST /v1/chat/completions} consumes the oldest ({@link #conversation} gives
 * concurrent sessions a queue each). When the queue is empty the
 * server answers HTTP 500 "script exhausted", so a test notices a call it did not expect. Every request
 * body is recorded ({@link #requests()}) so a test can assert what the client really sent.
 *
 * <p>Streaming ({@code "stream": true}) answers with server-sent events shaped like OpenAI's: a role
 * chunk, {@code reasoning_content} deltas, content deltas of a few characters each, tool calls as
 * index/id/name deltas followed by argument pieces, a finish-reason chunk, a usage chunk and
 * {@code data: [DONE]}. The usage chunk is sent even without {@code stream_options.include_usage},
 * because several real servers do so and clients must cope with it.
 *
 * <p>It also serves {@code POST /v1/embeddings}, unscripted: each text's vector is {@link HashedEmbedding}'s, a
 * deterministic hashed bag of words and character trigrams in which texts that share words or word forms land near
 * each other. Semantic search is tested and measured against it; it stands in for an embedding model and says
 * nothing about how good a real one is.
 *
 * <p>Thread-safe: script, recording and id counters are guarded, and each exchange runs on its own
 * virtual thread, so concurrent callers and delayed replies do not block one another.
 */
public final class ScriptedModelServer implements AutoCloseable {

    public static final String DEFAULT_MODEL = "scripted-model";

    private static final Logger LOG = LoggerFactory.getLogger(ScriptedModelServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEFAULT_CHUNK_SIZE = 4;

    private final String modelName;
    private final HttpServer http;
    private final ExecutorService executor;
    private final long startedAt = Instant.now().getEpochSecond();

    // One lock for script and recording so that request number n always meets script step n.
    private final Object lock = new Object();
    private final Deque<Step> script = new ArrayDeque<>();
    /** Scripts of their own for conversations told apart by a mark in their first user message. */
    private final java.util.Map<String, Conversation> conversations = new java.util.LinkedHashMap<>();
    private final List<JsonNode> requests = new ArrayList<>();
    private final List<String> authorizations = new ArrayList<>();
    /** Chat requests so far, whether or not their bodies are kept. */
    private int chatRequests;
    private JsonNode lastRequest;
    /**
     * Off for long benchmarks: every request carries the whole conversation, so keeping them all grows with the
     * square of a session's length (a 10-minute soak of 200 sessions filled a 4 GiB heap with them).
     */
    private boolean keepBodies = true;
    private int modelListRequests;
    /** Chat requests fully answered (the response body sent and closed), or given up on. */
    private int chatRequestsFinished;
    private int hangUps;
    private int embeddingRequests;
    private int embeddedTexts;

    /** The context window the server tells, and how; null: it tells none, like a hosted API. */
    private volatile WindowStyle windowStyle;
    private volatile long windowTokens;
    /** How the server tells its model's capabilities (LM Studio or Ollama), null: it tells none. */
    private volatile WindowStyle capabilityStyle;
    private volatile boolean toldVision;
    private volatile boolean toldTools;

    private final AtomicLong toolCallIds = new AtomicLong();
    private final AtomicLong completionIds = new AtomicLong();
    private volatile int chunkSize = DEFAULT_CHUNK_SIZE;

    private sealed interface Step permits ReplyStep, FailureStep, RawJsonStep, RawStreamStep {}

    private record ReplyStep(ScriptedReply reply) implements Step {}

    private record RawJsonStep(String json) implements Step {}

    private record RawStreamStep(List<String> events) implements Step {}

    private record FailureStep(int status, String body) implements Step {}

    static {
        // The JDK's HTTP server leaves Nagle's algorithm on: a streamed reply's small chunks then wait for the
        // client's delayed ACK, about 40 ms per reply. Real model servers (llama.cpp, vLLM, Ollama) set TCP_NODELAY;
        // without it here every model call would look 40 ms slower than the server is. Read once, at the first
        // HttpServer.create, so it is set before any server of this JVM starts.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private ScriptedModelServer(String modelName, InetAddress address) throws IOException {
        this.modelName = modelName;
        // Loopback unless a test asks otherwise, and an ephemeral port: parallel test runs never collide and
        // nothing is exposed.
        this.http = HttpServer.create(new InetSocketAddress(address, 0), 0);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(executor);
        http.createContext("/", this::handle);
        http.start();
    }

    /** Starts a server announcing the model {@value #DEFAULT_MODEL}. */
    public static ScriptedModelServer start() {
        return start(DEFAULT_MODEL);
    }

    /** Starts a server whose {@code GET /v1/models} lists {@code modelName}. */
    public static ScriptedModelServer start(String modelName) {
        Objects.requireNonNull(modelName, "modelName");
        return startOn(InetAddress.getLoopbackAddress(), modelName);
    }

    /**
     * Starts a server on {@code address} instead of loopback, for model clients that are not on this machine's
     * loopback: services in containers reach it on the Docker bridge's gateway address (the compose test). Bind
     * only such a private address: nothing else should reach a test double.
     */
    public static ScriptedModelServer startOn(InetAddress address, String modelName) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(modelName, "modelName");
        try {
            return new ScriptedModelServer(modelName, address);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the scripted model server on " + address, e);
        }
    }

    /** The OpenAI-style base URL, e.g. {@code http://127.0.0.1:41234/v1}. */
    public String baseUrl() {
        InetAddress bound = http.getAddress().getAddress();
        String host = bound.isLoopbackAddress() ? "127.0.0.1" : bound.getHostAddress();
        return "http://" + host + ":" + port() + "/v1";
    }

    public int port() {
        return http.getAddress().getPort();
    }

    public String modelName() {
        return modelName;
    }

    /** Streamed content and arguments are cut into pieces of this many characters (default 4). */
    public ScriptedModelServer streamChunkSize(int characters) {
        if (characters < 1) {
            throw new IllegalArgumentException("chunk size must be at least 1, was " + characters);
        }
        this.chunkSize = characters;
        return this;
    }

    /**
     * Makes the server tell a context window of {@code tokens} the way {@code style}'s servers do; without this it
     * tells none (its other routes answer 404).
     */
    public ScriptedModelServer tellContextWindow(WindowStyle style, long tokens) {
        this.windowStyle = Objects.requireNonNull(style, "style");
        this.windowTokens = tokens;
        return this;
    }

    /**
     * Makes the server tell what its model can do the way {@code style}'s servers do: LM Studio's {@code type}
     * ({@code vlm} or {@code llm}) and {@code capabilities} in {@code GET /api/v0/models}, Ollama's
     * {@code capabilities} in {@code POST /api/show}. Only those two styles say it; without this the server says
     * nothing (as vLLM, llama.cpp and hosted APIs).
     */
    public ScriptedModelServer tellCapabilities(WindowStyle style, boolean vision, boolean tools) {
        if (style != WindowStyle.LM_STUDIO && style != WindowStyle.OLLAMA) {
            throw new IllegalArgumentException(style + " servers do not tell capabilities");
        }
        this.capabilityStyle = style;
        this.toldVision = vision;
        this.toldTools = tools;
        return this;
    }

    // ---------------------------------------------------------------- script

    public ScriptedModelServer replyText(String text) {
        return reply(ScriptedReply.text(text));
    }

    /** One tool call; its id is assigned now ({@code call_1}, {@code call_2}, … in script order). */
    public ScriptedModelServer replyToolCall(String name, String argumentsJson) {
        return reply(ScriptedReply.toolCalls(List.of(ScriptedToolCall.of(name, argumentsJson))));
    }

    /** Several tool calls in one reply (parallel tool calling). */
    public ScriptedModelServer replyToolCalls(List<ScriptedToolCall> calls) {
        return reply(ScriptedReply.toolCalls(calls));
    }

    /**
     * Reasoning sent as {@code reasoning_content} plus an answer. For models that put their thoughts in
     * {@code <think>…</think>} inside the content instead, script that text with {@link #replyText}.
     */
    public ScriptedModelServer replyWithReasoning(String reasoning, String text) {
        return reply(ScriptedReply.reasoningAndText(reasoning, text));
    }

    /** Appends any reply, e.g. one with a delay, custom usage or explicit stream chunks. */
    public ScriptedModelServer reply(ScriptedReply reply) {
        Objects.requireNonNull(reply, "reply");
        ScriptedReply numbered = reply.withToolCalls(reply.toolCalls().stream()
                .map(call -> call.id() != null ? call : call.withId("call_" + toolCallIds.incrementAndGet()))
                .toList());
        synchronized (lock) {
            script.addLast(new ReplyStep(numbered));
        }
        return this;
    }

    /**
     * Appends a failure step: the request that reaches it gets HTTP {@code status} with {@code body}
     * (sent as JSON when it parses as JSON, else as plain text). Steps are consumed in the order they
     * were scripted, so {@code failNext(500, …).replyText("ok")} fails the first call and answers the
     * second, which is how a test drives a client's retry.
     */
    public ScriptedModelServer failNext(int status, String body) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a failure needs a 4xx or 5xx status, was " + status);
        }
        synchronized (lock) {
            script.addLast(new FailureStep(status, body == null ? "" : body));
        }
        return this;
    }

    /**
     * Appends a step answered with exactly this JSON body (HTTP 200), whatever the request asked for.
     * For imitating servers that deviate from OpenAI's shape (no {@code type} on tool calls, arguments
     * as an object, missing ids …), so a client's tolerance can be tested.
     */
    public ScriptedModelServer replyRaw(String json) {
        Objects.requireNonNull(json, "json");
        synchronized (lock) {
            script.addLast(new RawJsonStep(json));
        }
        return this;
    }

    /**
     * Appends a step answered as a stream of exactly these event payloads (each sent as one
     * {@code data:} event), followed by {@code data: [DONE]}. The streaming counterpart of
     * {@link #replyRaw}.
     */
    public ScriptedModelServer replyRawStream(List<String> eventPayloads) {
        List<String> events = List.copyOf(eventPayloads);
        synchronized (lock) {
            script.addLast(new RawStreamStep(events));
        }
        return this;
    }

    /**
     * A script of its own for every conversation whose first user message contains {@code mark}, for tests that
     * run several sessions at once: one shared queue would hand a reply to whichever session asked first.
     * Requests of other conversations still consume the main script.
     */
    public Conversation conversation(String mark) {
        Objects.requireNonNull(mark, "mark");
        synchronized (lock) {
            return conversations.computeIfAbsent(mark, Conversation::new);
        }
    }

    /** The replies and the request count of one conversation; see {@link #conversation(String)}. */
    public final class Conversation {
        private final String mark;
        private final Deque<ScriptedReply> replies = new ArrayDeque<>();
        private int requests;

        private Conversation(String mark) {
            this.mark = mark;
        }

        public Conversation replyText(String text) {
            return reply(ScriptedReply.text(text));
        }

        public Conversation replyToolCall(String name, String argumentsJson) {
            return reply(ScriptedReply.toolCalls(List.of(ScriptedToolCall.of(name, argumentsJson))));
        }

        public Conversation reply(ScriptedReply reply) {
            ScriptedReply numbered = reply.withToolCalls(reply.toolCalls().stream()
                    .map(call -> call.id() != null ? call : call.withId("call_" + toolCallIds.incrementAndGet()))
                    .toList());
            synchronized (lock) {
                replies.addLast(numbered);
            }
            return this;
        }

        /** Chat requests of this conversation so far. */
        public int requestCount() {
            synchronized (lock) {
                return requests;
            }
        }

        /** Replies not yet asked for. */
        public int remaining() {
            synchronized (lock) {
                return replies.size();
            }
        }
    }

    /**
     * Chat answers the client hung up on before they were complete (writing the rest failed): how a test sees that
     * a client stopped a stream instead of reading it to its end.
     */
    public int hangUps() {
        synchronized (lock) {
            return hangUps;
        }
    }

    /** Waits until at least {@code count} answers were hung up on; false when the time ran out first. */
    public boolean awaitHangUps(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (hangUps < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /** Script steps not yet consumed; a test can assert 0 to prove every scripted reply was used. */
    public int remainingSteps() {
        synchronized (lock) {
            return script.size();
        }
    }

    // ---------------------------------------------------------------- recording

    /**
     * The bodies of all chat completion requests so far, in arrival order. A body that was not valid
     * JSON is recorded as a text node holding the raw body.
     */
    public List<JsonNode> requests() {
        synchronized (lock) {
            if (!keepBodies) {
                throw new IllegalStateException("this server keeps only the last request (keepOnlyTheLastRequest)");
            }
            return List.copyOf(requests);
        }
    }

    /** Keeps the count, the last body and nothing else of the requests: for benchmarks that run for minutes. */
    public ScriptedModelServer keepOnlyTheLastRequest() {
        synchronized (lock) {
            keepBodies = false;
            requests.clear();
            authorizations.clear();
        }
        return this;
    }

    /** The {@code Authorization} header of each chat request, in order (null where none was sent). */
    public List<String> authorizations() {
        synchronized (lock) {
            return new ArrayList<>(authorizations);
        }
    }

    public int requestCount() {
        synchronized (lock) {
            return chatRequests;
        }
    }

    /** The most recent chat completion request body. */
    public JsonNode lastRequest() {
        synchronized (lock) {
            if (lastRequest == null) {
                throw new IllegalStateException("no chat completion request has arrived yet");
            }
            return lastRequest;
        }
    }

    /** How many times {@code GET /v1/models} was asked (lets a test check that a client caches it). */
    public int modelListRequestCount() {
        synchronized (lock) {
            return modelListRequests;
        }
    }

    /**
     * Waits until at least {@code count} chat requests have arrived; for tests whose caller runs in
     * another thread or process.
     *
     * @return whether the count was reached before the timeout
     */
    public boolean awaitRequestCount(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (chatRequests < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /**
     * Waits until at least {@code count} chat requests have been answered to the end (the response closed): the
     * client has then had everything it will get, for tests that check what a client did with a late answer.
     *
     * @return whether the count was reached before the timeout
     */
    public boolean awaitAnswered(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (chatRequestsFinished < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /**
     * Forgets the script and the recorded requests, for a server shared by several tests: each starts from an
     * empty script, and what one test left unused cannot answer the next test's requests.
     */
    public void reset() {
        synchronized (lock) {
            hangUps = 0;
            script.clear();
            requests.clear();
            authorizations.clear();
            chatRequests = 0;
            lastRequest = null;
            modelListRequests = 0;
            chatRequestsFinished = 0;
            conversations.clear();
            embeddingRequests = 0;
            embeddedTexts = 0;
        }
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------- HTTP

    private void handle(HttpExchange exchange) {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/v1/models") || path.equals("/v1/models/")) {
                if (!method.equals("GET")) {
                    sendError(exchange, 405, "method " + method + " not allowed on " + path, "invalid_request_error", null);
                    return;
                }
                handleModels(exchange);
            } else if (capabilityRoute(path, method)) {
                handleCapabilities(exchange);
            } else if (windowRoute(path, method)) {
                handleWindow(exchange);
            } else if (path.equals("/v1/embeddings")) {
                if (!method.equals("POST")) {
                    sendError(exchange, 405, "method " + method + " not allowed on " + path, "invalid_request_error", null);
                    return;
                }
                handleEmbeddings(exchange);
            } else if (path.equals("/v1/chat/completions")) {
                if (!method.equals("POST")) {
                    sendError(exchange, 405, "method " + method + " not allowed on " + path, "invalid_request_error", null);
                    return;
                }
                try {
                    handleChat(exchange);
                } catch (IOException e) {
                    // The client hung up before the answer was complete: a stopped stream, a time-out.
                    synchronized (lock) {
                        hangUps++;
                        lock.notifyAll();
                    }
                    throw e;
                } finally {
                    exchange.close();
                    synchronized (lock) {
                        chatRequestsFinished++;
                        lock.notifyAll();
                    }
                }
            } else {
                sendError(exchange, 404, "the scripted model server has no route " + method + " " + path,
                        "invalid_request_error", "not_found");
            }
        } catch (IOException e) {
            // Usually the client hung up (time-out test, cancelled stream); nothing left to answer.
            LOG.debug("scripted model server: exchange ended early: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("scripted model server: unexpected failure", e);
        }
    }

    private void handleModels(HttpExchange exchange) throws IOException {
        synchronized (lock) {
            modelListRequests++;
        }
        ObjectNode model = JSON.createObjectNode()
                .put("id", modelName)
                .put("object", "model")
                .put("created", startedAt)
                .put("owned_by", "agentbus-testkit");
        if (windowStyle == WindowStyle.VLLM) {
            model.put("max_model_len", windowTokens);
        }
        ObjectNode list = JSON.createObjectNode().put("object", "list");
        list.putArray("data").add(model);
        sendJson(exchange, 200, list.toString());
    }

    /**
     * {@code POST /v1/embeddings}, OpenAI's shape: {@code input} is one string or a list of them, the answer has one
     * {@code data} item per input with its {@code index}. The vectors are {@link HashedEmbedding}'s, computed, not
     * scripted: the same text always gets the same vector, whatever the model asked for (the name is echoed).
     */
    private void handleEmbeddings(HttpExchange exchange) throws IOException {
        JsonNode request = parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        JsonNode input = request == null ? null : request.get("input");
        List<String> texts = new ArrayList<>();
        if (input != null && input.isTextual()) {
            texts.add(input.asText());
        } else if (input != null && input.isArray()) {
            for (JsonNode t : input) {
                if (!t.isTextual()) {
                    sendError(exchange, 400, "input must be a string or a list of strings", "invalid_request_error",
                            null);
                    return;
                }
                texts.add(t.asText());
            }
        }
        if (texts.isEmpty()) {
            sendError(exchange, 400, "input is required: a string or a non-empty list of strings",
                    "invalid_request_error", null);
            return;
        }
        synchronized (lock) {
            embeddingRequests++;
            embeddedTexts += texts.size();
        }
        ObjectNode answer = JSON.createObjectNode().put("object", "list");
        ArrayNode data = answer.putArray("data");
        long words = 0;
        for (int i = 0; i < texts.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            ArrayNode vector = item.putArray("embedding");
            for (float x : HashedEmbedding.embed(texts.get(i))) {
                vector.add(x);
            }
            words += texts.get(i).isBlank() ? 0 : texts.get(i).strip().split("\\s+").length;
        }
        answer.put("model", request.path("model").asText(modelName));
        answer.putObject("usage").put("prompt_tokens", words).put("total_tokens", words);
        sendJson(exchange, 200, answer.toString());
    }

    /** How many {@code POST /v1/embeddings} requests were answered. */
    public int embeddingRequestCount() {
        synchronized (lock) {
            return embeddingRequests;
        }
    }

    /** How many texts were embedded, over all requests (a client that embeds a text twice shows here). */
    public int embeddedTextCount() {
        synchronized (lock) {
            return embeddedTexts;
        }
    }

    /** LM Studio's and Ollama's routes, when the server tells capabilities their way (and the window, if told so). */
    private boolean capabilityRoute(String path, String method) {
        WindowStyle caps = capabilityStyle;
        return caps == WindowStyle.LM_STUDIO && path.equals("/api/v0/models") && method.equals("GET")
                || caps == WindowStyle.OLLAMA && path.equals("/api/show") && method.equals("POST");
    }

    private boolean windowRoute(String path, String method) {
        WindowStyle style = windowStyle;
        return style != null && switch (style) {
            case VLLM -> false; // told in /v1/models
            case LM_STUDIO -> path.equals("/api/v0/models") && method.equals("GET");
            case LLAMA_CPP -> path.equals("/props") && method.equals("GET");
            case OLLAMA -> path.equals("/api/show") && method.equals("POST");
        };
    }

    private void handleCapabilities(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        WindowStyle caps = capabilityStyle;
        if (caps == WindowStyle.LM_STUDIO) {
            ObjectNode m = body.putArray("data").addObject().put("id", modelName)
                    .put("type", toldVision ? "vlm" : "llm");
            if (toldTools) {
                m.putArray("capabilities").add("tool_use");
            }
            if (windowStyle == caps) {
                m.put("max_context_length", windowTokens * 4).put("loaded_context_length", windowTokens);
            }
        } else {
            var list = body.putArray("capabilities").add("completion");
            if (toldVision) {
                list.add("vision");
            }
            if (toldTools) {
                list.add("tools");
            }
            if (windowStyle == caps) {
                body.put("parameters", "temperature 0.7\nnum_ctx " + windowTokens);
            }
        }
        sendJson(exchange, 200, body.toString());
    }

    private void handleWindow(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        switch (windowStyle) {
            case LM_STUDIO -> body.putArray("data").addObject().put("id", modelName).put("type", "llm")
                    .put("max_context_length", windowTokens * 4).put("loaded_context_length", windowTokens);
            case LLAMA_CPP -> body.putObject("default_generation_settings").put("n_ctx", windowTokens);
            case OLLAMA -> {
                body.put("parameters", "temperature 0.7\nnum_ctx " + windowTokens);
                body.putObject("model_info").put("llama.context_length", windowTokens * 4);
            }
            case VLLM -> {
            }
        }
        sendJson(exchange, 200, body.toString());
    }

    private void handleChat(HttpExchange exchange) throws IOException, InterruptedException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode request = parse(body);
        Step step;
        int number;
        synchronized (lock) {
            lastRequest = request == null ? TextNode.valueOf(body) : request;
            chatRequests++;
            if (keepBodies) {
                requests.add(lastRequest);
                authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            }
            number = chatRequests;
            // A malformed request does not consume a step: the script describes model answers, and a
            // real server would reject such a request before the model ever saw it.
            step = request == null || !request.isObject() ? null : nextStep(request);
            lock.notifyAll();
        }
        if (request == null || !request.isObject()) {
            sendError(exchange, 400, "request body is not a JSON object", "invalid_request_error", null);
            return;
        }
        switch (step) {
            case null -> sendError(exchange, 500,
                    "script exhausted: request #" + number + " arrived but no scripted reply is left",
                    "server_error", "script_exhausted");
            case FailureStep failure -> sendRaw(exchange, failure.status(), failure.body());
            case RawJsonStep raw -> sendJson(exchange, 200, raw.json());
            case RawStreamStep raw -> {
                startStream(exchange);
                OutputStream out = exchange.getResponseBody();
                for (String event : raw.events()) {
                    out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            case ReplyStep replyStep -> {
                ScriptedReply reply = replyStep.reply();
                sleep(reply.delay());
                String model = request.path("model").asText("");
                if (model.isBlank()) {
                    model = modelName;
                }
                ScriptedUsage usage = reply.usage() != null ? reply.usage() : estimateUsage(body, reply);
                String id = "chatcmpl-scripted-" + completionIds.incrementAndGet();
                if (request.path("stream").asBoolean(false)) {
                    boolean includeUsage = request.path("stream_options").path("include_usage").asBoolean(false)
                            && !usage.omitted();
                    stream(exchange, id, model, reply, usage, includeUsage);
                } else {
                    sendJson(exchange, 200, completion(id, model, reply, usage).toString());
                }
            }
        }
    }

    /** The next step for this request: its conversation's, if a mark matches, else the main script's. Under lock. */
    private Step nextStep(JsonNode request) {
        String firstUserMessage = "";
        for (JsonNode message : request.path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                firstUserMessage = message.path("content").toString();
                break;
            }
        }
        for (Conversation conversation : conversations.values()) {
            if (firstUserMessage.contains(conversation.mark)) {
                conversation.requests++;
                ScriptedReply reply = conversation.replies.pollFirst();
                return reply == null ? null : new ReplyStep(reply);
            }
        }
        return script.pollFirst();
    }

    private ObjectNode completion(String id, String model, ScriptedReply reply, ScriptedUsage usage) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        if (reply.content() == null || reply.content().isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", reply.content());
        }
        if (reply.reasoning() != null) {
            message.put("reasoning_content", reply.reasoning());
        }
        if (!reply.toolCalls().isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (ScriptedToolCall call : reply.toolCalls()) {
                ObjectNode node = calls.addObject().put("id", call.id()).put("type", "function");
                node.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
            }
        }
        message.putNull("refusal");

        ObjectNode root = envelope(id, model, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.effectiveFinishReason());
        if (!usage.omitted()) {
            root.set("usage", usageNode(usage));
        }
        return root;
    }

    private void stream(HttpExchange exchange, String id, String model, ScriptedReply reply,
                        ScriptedUsage usage, boolean includeUsage) throws IOException, InterruptedException {
        startStream(exchange);
        OutputStream out = exchange.getResponseBody();
        Duration pause = reply.chunkDelay();

        ObjectNode first = JSON.createObjectNode().put("role", "assistant").put("content", "");
        sendChunk(out, chunk(id, model, first, null, includeUsage), Duration.ZERO);

        if (reply.reasoning() != null) {
            for (String piece : slice(reply.reasoning())) {
                sendChunk(out, chunk(id, model, JSON.createObjectNode().put("reasoning_content", piece), null, includeUsage), pause);
            }
        }
        List<String> contentPieces = reply.contentChunks() != null ? reply.contentChunks()
                : reply.content() == null ? List.of() : slice(reply.content());
        for (String piece : contentPieces) {
            sendChunk(out, chunk(id, model, JSON.createObjectNode().put("content", piece), null, includeUsage), pause);
        }
        for (int index = 0; index < reply.toolCalls().size(); index++) {
            ScriptedToolCall call = reply.toolCalls().get(index);
            // As OpenAI does: the first delta of a call carries index, id, type and name with empty
            // arguments; later deltas carry only the index and a piece of the arguments.
            ObjectNode head = JSON.createObjectNode();
            ObjectNode headCall = head.putArray("tool_calls").addObject()
                    .put("index", index).put("id", call.id()).put("type", "function");
            headCall.putObject("function").put("name", call.name()).put("arguments", "");
            sendChunk(out, chunk(id, model, head, null, includeUsage), pause);
            for (String piece : slice(call.argumentsJson())) {
                ObjectNode delta = JSON.createObjectNode();
                delta.putArray("tool_calls").addObject().put("index", index)
                        .putObject("function").put("arguments", piece);
                sendChunk(out, chunk(id, model, delta, null, includeUsage), pause);
            }
        }
        sendChunk(out, chunk(id, model, JSON.createObjectNode(), reply.effectiveFinishReason(), includeUsage), pause);

        if (!usage.omitted()) {
            ObjectNode usageChunk = envelope(id, model, "chat.completion.chunk");
            usageChunk.putArray("choices");
            usageChunk.set("usage", usageNode(usage));
            sendChunk(out, usageChunk, Duration.ZERO);
        }

        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void startStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // 0 = chunked: the length is unknown while streaming
    }

    private ObjectNode chunk(String id, String model, ObjectNode delta, String finishReason, boolean includeUsage) {
        ObjectNode root = envelope(id, model, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            root.putNull("usage"); // OpenAI sends "usage": null on every chunk but the last when asked for usage
        }
        return root;
    }

    private ObjectNode envelope(String id, String model, String object) {
        return JSON.createObjectNode()
                .put("id", id)
                .put("object", object)
                .put("created", Instant.now().getEpochSecond())
                .put("model", model)
                .put("system_fingerprint", "fp_scripted");
    }

    private static ObjectNode usageNode(ScriptedUsage usage) {
        return JSON.createObjectNode()
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens());
    }

    /** Roughly four characters per token, like the usual rule of thumb; only has to be plausible. */
    private static ScriptedUsage estimateUsage(String requestBody, ScriptedReply reply) {
        long replyChars = length(reply.content()) + length(reply.reasoning());
        for (ScriptedToolCall call : reply.toolCalls()) {
            replyChars += call.name().length() + call.argumentsJson().length();
        }
        return ScriptedUsage.of(Math.max(1, requestBody.length() / 4), Math.max(1, replyChars / 4));
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }

    /** Cuts text into pieces of {@link #chunkSize} code points, never splitting a surrogate pair. */
    private List<String> slice(String text) {
        List<String> pieces = new ArrayList<>();
        int size = chunkSize;
        int start = 0;
        while (start < text.length()) {
            int end = start;
            for (int n = 0; n < size && end < text.length(); n++) {
                end = text.offsetByCodePoints(end, 1);
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }

    private static void sendChunk(OutputStream out, ObjectNode chunk, Duration pauseBefore)
            throws IOException, InterruptedException {
        sleep(pauseBefore);
        out.write(("data: " + chunk + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush(); // flush each event so the client really receives deltas one by one
    }

    private static void sleep(Duration duration) throws InterruptedException {
        if (!duration.isZero() && !duration.isNegative()) {
            Thread.sleep(duration);
        }
    }

    private static void sendError(HttpExchange exchange, int status, String message, String type, String code)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message).put("type", type);
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        error.putNull("param");
        sendJson(exchange, status, root.toString());
    }

    private static void sendRaw(HttpExchange exchange, int status, String body) throws IOException {
        if (parse(body) != null) {
            sendJson(exchange, status, body);
        } else {
            send(exchange, status, "text/plain; charset=utf-8", body);
        }
    }

    private static void sendJson(HttpExchange exchange, int status, String json) throws IOException {
        send(exchange, status, "application/json", json);
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }
}
