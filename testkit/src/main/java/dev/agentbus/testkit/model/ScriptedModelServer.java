package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 *
 * <p>This class is the public face and the router; the work is done by package-private parts: {@code Script} (what
 * to answer), {@code Recorder} (what was asked), {@code ChatCompletionsRoute} with {@code CompletionJson} and
 * {@code CompletionStream} (answering chat), {@code EmbeddingsRoute} and {@code ModelInfoRoutes} (the model list and
 * the window and capabilities of the different server styles).
 */
public final class ScriptedModelServer implements AutoCloseable {

    public static final String DEFAULT_MODEL = "scripted-model";

    private static final Logger LOG = LoggerFactory.getLogger(ScriptedModelServer.class);

    private final String modelName;
    private final HttpServer http;
    private final ExecutorService executor;

    // One lock for script and recording so that request number n always meets script step n.
    private final Object lock = new Object();
    private final Script script = new Script(lock);
    private final Recorder recorder = new Recorder(lock);
    private final CompletionStream stream = new CompletionStream();
    private final ChatCompletionsRoute chat;
    private final EmbeddingsRoute embeddings;
    private final ModelInfoRoutes modelInfo;

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
        this.chat = new ChatCompletionsRoute(modelName, lock, script, recorder, stream);
        this.embeddings = new EmbeddingsRoute(modelName, recorder);
        this.modelInfo = new ModelInfoRoutes(modelName, recorder);
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
        stream.chunkSize(characters);
        return this;
    }

    /**
     * Makes the server tell a context window of {@code tokens} the way {@code style}'s servers do; without this it
     * tells none (its other routes answer 404).
     */
    public ScriptedModelServer tellContextWindow(WindowStyle style, long tokens) {
        modelInfo.tellContextWindow(style, tokens);
        return this;
    }

    /**
     * Makes the server tell what its model can do the way {@code style}'s servers do: LM Studio's {@code type}
     * ({@code vlm} or {@code llm}) and {@code capabilities} in {@code GET /api/v0/models}, Ollama's
     * {@code capabilities} in {@code POST /api/show}. Only those two styles say it; without this the server says
     * nothing (as vLLM, llama.cpp and hosted APIs).
     */
    public ScriptedModelServer tellCapabilities(WindowStyle style, boolean vision, boolean tools) {
        modelInfo.tellCapabilities(style, vision, tools);
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
        script.append(new Script.Reply(script.numbered(reply)));
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
        script.append(new Script.Failure(status, body == null ? "" : body));
        return this;
    }

    /**
     * Appends a step answered with exactly this JSON body (HTTP 200), whatever the request asked for.
     * For imitating servers that deviate from OpenAI's shape (no {@code type} on tool calls, arguments
     * as an object, missing ids …), so a client's tolerance can be tested.
     */
    public ScriptedModelServer replyRaw(String json) {
        Objects.requireNonNull(json, "json");
        script.append(new Script.RawJson(json));
        return this;
    }

    /**
     * Appends a step answered as a stream of exactly these event payloads (each sent as one
     * {@code data:} event), followed by {@code data: [DONE]}. The streaming counterpart of
     * {@link #replyRaw}.
     */
    public ScriptedModelServer replyRawStream(List<String> eventPayloads) {
        script.append(new Script.RawStream(List.copyOf(eventPayloads)));
        return this;
    }

    /**
     * A script of its own for every conversation whose first user message contains {@code mark}, for tests that
     * run several sessions at once: one shared queue would hand a reply to whichever session asked first.
     * Requests of other conversations still consume the main script.
     */
    public Conversation conversation(String mark) {
        Objects.requireNonNull(mark, "mark");
        return new Conversation(script.conversation(mark));
    }

    /** The replies and the request count of one conversation; see {@link #conversation(String)}. */
    public final class Conversation {
        private final Script.ConversationQueue queue;

        private Conversation(Script.ConversationQueue queue) {
            this.queue = queue;
        }

        public Conversation replyText(String text) {
            return reply(ScriptedReply.text(text));
        }

        public Conversation replyToolCall(String name, String argumentsJson) {
            return reply(ScriptedReply.toolCalls(List.of(ScriptedToolCall.of(name, argumentsJson))));
        }

        public Conversation reply(ScriptedReply reply) {
            script.append(queue, reply);
            return this;
        }

        /**
         * From now on a request gets the reply for its place in the conversation (how many assistant messages it
         * holds), not the next one: a model call made again with the same history (after a crash or a partition
         * moving to another orchestrator, which invariant 3 allows for a decision never recorded) is answered the
         * same, so a test need not know whether it happened.
         */
        public Conversation sameAnswerWhenAskedAgain() {
            script.answerByHistory(queue);
            return this;
        }

        /** Chat requests of this conversation so far (a call made again counts again). */
        public int requestCount() {
            return script.requestCount(queue);
        }

        /** Replies not yet asked for. */
        public int remaining() {
            return script.remaining(queue);
        }
    }

    /**
     * Chat answers the client hung up on before they were complete (writing the rest failed): how a test sees that
     * a client stopped a stream instead of reading it to its end.
     */
    public int hangUps() {
        return recorder.hangUps();
    }

    /** Waits until at least {@code count} answers were hung up on; false when the time ran out first. */
    public boolean awaitHangUps(int count, Duration timeout) throws InterruptedException {
        return recorder.awaitHangUps(count, timeout);
    }

    /** Script steps not yet consumed; a test can assert 0 to prove every scripted reply was used. */
    public int remainingSteps() {
        return script.remaining();
    }

    // ---------------------------------------------------------------- recording

    /**
     * The bodies of all chat completion requests so far, in arrival order. A body that was not valid
     * JSON is recorded as a text node holding the raw body.
     */
    public List<JsonNode> requests() {
        return recorder.requests();
    }

    /** Keeps the count, the last body and nothing else of the requests: for benchmarks that run for minutes. */
    public ScriptedModelServer keepOnlyTheLastRequest() {
        recorder.keepOnlyTheLastRequest();
        return this;
    }

    /** The {@code Authorization} header of each chat request, in order (null where none was sent). */
    public List<String> authorizations() {
        return recorder.authorizations();
    }

    public int requestCount() {
        return recorder.chatRequests();
    }

    /** The most recent chat completion request body. */
    public JsonNode lastRequest() {
        return recorder.lastRequest();
    }

    /** How many times {@code GET /v1/models} was asked (lets a test check that a client caches it). */
    public int modelListRequestCount() {
        return recorder.modelListRequests();
    }

    /**
     * Waits until at least {@code count} chat requests have arrived; for tests whose caller runs in
     * another thread or process.
     *
     * @return whether the count was reached before the timeout
     */
    public boolean awaitRequestCount(int count, Duration timeout) throws InterruptedException {
        return recorder.awaitChatRequests(count, timeout);
    }

    /**
     * Waits until at least {@code count} chat requests have been answered to the end (the response closed): the
     * client has then had everything it will get, for tests that check what a client did with a late answer.
     *
     * @return whether the count was reached before the timeout
     */
    public boolean awaitAnswered(int count, Duration timeout) throws InterruptedException {
        return recorder.awaitAnswered(count, timeout);
    }

    /** How many {@code POST /v1/embeddings} requests were answered. */
    public int embeddingRequestCount() {
        return recorder.embeddingRequests();
    }

    /** How many texts were embedded, over all requests (a client that embeds a text twice shows here). */
    public int embeddedTextCount() {
        return recorder.embeddedTexts();
    }

    /**
     * Forgets the script and the recorded requests, for a server shared by several tests: each starts from an
     * empty script, and what one test left unused cannot answer the next test's requests.
     */
    public void reset() {
        synchronized (lock) {
            script.clear();
            recorder.clear();
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
                    Exchanges.sendMethodNotAllowed(exchange, method, path);
                    return;
                }
                modelInfo.handleModelList(exchange);
            } else if (modelInfo.serves(path, method)) {
                modelInfo.handle(exchange, path, method);
            } else if (path.equals("/v1/embeddings")) {
                if (!method.equals("POST")) {
                    Exchanges.sendMethodNotAllowed(exchange, method, path);
                    return;
                }
                embeddings.handle(exchange);
            } else if (path.equals("/v1/chat/completions")) {
                if (!method.equals("POST")) {
                    Exchanges.sendMethodNotAllowed(exchange, method, path);
                    return;
                }
                chat.handle(exchange);
            } else {
                Exchanges.sendError(exchange, 404, "the scripted model server has no route " + method + " " + path,
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
}
