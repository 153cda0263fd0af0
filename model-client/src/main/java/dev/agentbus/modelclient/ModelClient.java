package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Talks to one OpenAI-compatible chat completion server (LM Studio, Ollama, vLLM, llama.cpp, a hosted
 * API) with native tool calling, over the JDK's HTTP client and Jackson.
 *
 * <p>Retries: up to {@link ModelSettings#maxRetries()} more attempts on connection failures and on HTTP 408,
 * 409, 429 and 5xx, with exponential backoff (about 0.5 s, 1 s, 2 s … capped at 8 s, with jitter, or what the
 * server's {@code Retry-After} asks, up to a minute). A streamed call is only retried before its first byte: a
 * stream that breaks half way fails, because its deltas have already been passed on. Time-out: one limit per
 * attempt ({@link ModelSettings#timeout()}), covering connect, the wait for the first token and reading a streamed
 * reply to its end.
 *
 * <p>What this class adds is tolerance for the ways real servers differ from OpenAI: reasoning in a
 * {@code reasoning_content} (or {@code reasoning}) field or in {@code <think>} blocks inside the content,
 * missing tool-call ids or types, arguments sent as a JSON object or as {@code ""} for a no-arg tool, missing
 * usage, plain-text error bodies, and an unnamed model (taken from {@code GET /models}).
 *
 * <p>It used the official {@code openai-java} SDK before; a profile of the agent loop found that SDK spending about
 * 5 ms of CPU per call on building and converting request objects (the agent's whole tool catalog, every call), more
 * than the rest of the orchestrator. This writes the request straight to bytes and reuses the tool catalog's JSON.
 *
 * <p>Thread-safe: one instance can serve concurrent calls.
 */
public final class ModelClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ModelClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(8);
    private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(1);
    /** Closes a reply's body when its attempt runs out of time, which ends a read that would block on. */
    private static final ScheduledExecutorService DEADLINES = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("model-client-deadlines").factory());

    private final ModelSettings settings;
    private final HttpClient http;
    private final RequestWriter requests = new RequestWriter();
    private final Object modelLock = new Object();
    private volatile String resolvedModel;
    /** The context window as the server said, asked once; the time it was asked, for asking again after a miss. */
    private volatile Optional<ContextWindow> contextWindow;
    private volatile long contextWindowAskedAt;

    public ModelClient(ModelSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        // HTTP/1.1: local model servers speak it, and an h2c upgrade attempt confuses some of them.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout()).build();
    }

    public ModelSettings settings() {
        return settings;
    }

    /**
     * Asks the model for the next message.
     *
     * @param messages the conversation so far, oldest first
     * @param tools    the functions the model may call (empty for none)
     * @param listener receives content and reasoning as they arrive ({@code null} for none)
     * @return the complete reply; its content never contains a {@code <think>} block
     * @throws ModelCallException when the server cannot be reached, answers with an error after the
     *                            retries, or sends something unreadable
     */
    public ModelReply complete(List<ChatMessage> messages, List<ToolDefinition> tools, DeltaListener listener)
            throws ModelCallException {
        return complete(CallSettings.NONE, messages, tools, listener);
    }

    /**
     * As {@link #complete(List, List, DeltaListener)}, with this call's own model and sampling: a session's choice.
     *
     * @param call what differs from the client's settings ({@link CallSettings#NONE}: nothing)
     */
    public ModelReply complete(CallSettings call, List<ChatMessage> messages, List<ToolDefinition> tools,
                               DeltaListener listener) throws ModelCallException {
        Objects.requireNonNull(messages, "messages");
        CallSettings own = call == null ? CallSettings.NONE : call;
        List<ToolDefinition> toolList = tools == null ? List.of() : tools;
        DeltaListener deltas = listener == null ? DeltaListener.NONE : listener;
        String model = own.model() != null ? own.model() : resolveModel();
        byte[] body = requests.write(model, settings, own, messages, toolList);
        HttpRequest.Builder request = request("/chat/completions")
                .header("Content-Type", "application/json")
                .header("Accept", settings.stream() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        ReplyAssembler reply = new ReplyAssembler(model, deltas);
        String what = "chat completion";
        try (Answer answer = send(what, request)) {
            if (settings.stream()) {
                readStream(answer, reply, what);
            } else {
                readWhole(answer.text(), reply, what);
            }
        }
        return withTextToolCalls(reply.finish(), toolList);
    }

    /**
     * A reply without native calls whose content holds calls written as text ({@link TextToolCalls}) gets them as
     * real calls, and keeps the rest of the text as its content.
     */
    static ModelReply withTextToolCalls(ModelReply reply, List<ToolDefinition> tools) {
        if (reply.hasToolCalls() || tools.isEmpty()) {
            return reply;
        }
        return new TextToolCalls(tools).find(reply.content())
                .map(found -> {
                    LOG.debug("read {} tool call(s) written as text in the answer", found.calls().size());
                    return new ModelReply(reply.model(), found.content(), reply.reasoning(), found.calls(),
                            reply.usage(), reply.finishReason());
                })
                .orElse(reply);
    }

    /**
     * The model name requests use: the configured one, or else the first model the server lists under
     * {@code GET /models} (asked once, then cached), skipping embedding models because LM Studio lists
     * those next to chat models.
     */
    public String resolveModel() throws ModelCallException {
        if (!settings.model().isBlank()) {
            return settings.model();
        }
        String cached = resolvedModel;
        if (cached != null) {
            return cached;
        }
        synchronized (modelLock) {
            if (resolvedModel == null) {
                String what = "listing models";
                List<String> ids = new ArrayList<>();
                try (Answer answer = send(what, request("/models").GET())) {
                    for (JsonNode m : parse(answer.text(), what).path("data")) {
                        String id = m.path("id").asText("");
                        if (!id.isBlank()) {
                            ids.add(id);
                        }
                    }
                }
                if (ids.isEmpty()) {
                    throw new ModelCallException("model server at " + settings.baseUrl()
                            + " lists no models (GET /models): load a model there or configure a model name", null);
                }
                resolvedModel = ids.stream().filter(id -> !id.toLowerCase().contains("embed")).findFirst()
                        .orElse(ids.getFirst());
                LOG.info("no model configured; using '{}', the first model {} lists", resolvedModel, settings.baseUrl());
            }
            return resolvedModel;
        }
    }

    /** After the server said nothing, it is asked again this much later (a model may have been loaded meanwhile). */
    private static final Duration CONTEXT_WINDOW_RETRY = Duration.ofMinutes(5);

    /**
     * The model's context window as the server says (see {@link ContextWindowProbe} for where each kind of server
     * says it), asked at the first call and then remembered; empty when the server does not say. Never throws: a
     * server that cannot be asked simply does not say.
     */
    public Optional<ContextWindow> contextWindow() {
        Optional<ContextWindow> known = contextWindow;
        if (known != null && (known.isPresent()
                || System.nanoTime() - contextWindowAskedAt < CONTEXT_WINDOW_RETRY.toNanos())) {
            return known;
        }
        String model;
        try {
            model = resolveModel();
        } catch (ModelCallException e) {
            model = settings.model();
        }
        Optional<ContextWindow> asked = new ContextWindowProbe(http, settings.baseUrl(), settings.apiKey())
                .probe(model);
        asked.ifPresent(w -> LOG.info("context window of {} at {}: {} tokens ({})", settings.model(),
                settings.baseUrl(), w.tokens(), w.source()));
        contextWindowAskedAt = System.nanoTime();
        contextWindow = asked;
        return asked;
    }

    /** What each model can do, as the server said; a model it said nothing about is asked again after a while. */
    private final java.util.Map<String, ModelCapabilities> capabilities = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<String, Long> capabilitiesAskedAt = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What {@code model} can do as the server says ({@link CapabilityProbe}), asked once per model and remembered;
     * {@link ModelCapabilities#UNKNOWN} where the server does not say (asked again after a few minutes). Never throws.
     */
    public ModelCapabilities capabilities(String model) {
        ModelCapabilities known = capabilities.get(model);
        Long askedAt = capabilitiesAskedAt.get(model);
        if (known != null && (known.known() || System.nanoTime() - askedAt < CONTEXT_WINDOW_RETRY.toNanos())) {
            return known;
        }
        ModelCapabilities asked = new CapabilityProbe(http, settings.baseUrl(), settings.apiKey()).probe(model);
        if (asked.known()) {
            LOG.info("capabilities of {} at {}: {}", model, settings.baseUrl(), asked);
        }
        capabilitiesAskedAt.put(model, System.nanoTime());
        capabilities.put(model, asked);
        return asked;
    }

    @Override
    public void close() {
        http.close();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.baseUrl() + path))
                .timeout(settings.timeout());
        if (!settings.apiKey().isBlank()) {
            b.header("Authorization", "Bearer " + settings.apiKey());
        }
        return b;
    }

    /**
     * A reply that answered 2xx, whose body is read within the attempt's time limit. Closing it releases the
     * connection (or closes it, if the body was not read to its end).
     */
    private final class Answer implements AutoCloseable {
        private final InputStream body;
        private final ScheduledFuture<?> deadline;
        private final AtomicBoolean timedOut;
        private final String what;

        Answer(InputStream body, ScheduledFuture<?> deadline, AtomicBoolean timedOut, String what) {
            this.body = body;
            this.deadline = deadline;
            this.timedOut = timedOut;
            this.what = what;
        }

        String text() throws ModelCallException {
            try {
                return new String(body.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw readFailure(e);
            }
        }

        BufferedReader lines() {
            return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        }

        ModelCallException readFailure(IOException e) {
            return new ModelCallException(server() + " did not answer the " + what + ": "
                    + (timedOut.get() ? timeoutText(e) : describeIo(e)), e);
        }

        @Override
        public void close() {
            deadline.cancel(false);
            try {
                body.close();
            } catch (IOException ignored) {
                // the connection is dropped either way
            }
        }
    }

    /** Sends with retries; answers the first 2xx reply, or fails with the server's words. */
    private Answer send(String what, HttpRequest.Builder builder) throws ModelCallException {
        HttpRequest request = builder.build();
        int retries = settings.maxRetries();
        for (int attempt = 0; ; attempt++) {
            boolean last = attempt >= retries;
            AtomicBoolean timedOut = new AtomicBoolean();
            HttpResponse<InputStream> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelCallException(server() + ": the " + what + " was interrupted", e);
            } catch (IOException e) {
                if (!last) {
                    pause(backoff(attempt, null));
                    continue;
                }
                throw new ModelCallException(server() + " did not answer the " + what + ": "
                        + (e instanceof HttpTimeoutException && !(e instanceof HttpConnectTimeoutException)
                        ? timeoutText(e) : describeIo(e)) + retried(), e);
            }
            InputStream body = response.body();
            int status = response.statusCode();
            if (status / 100 == 2) {
                ScheduledFuture<?> deadline = DEADLINES.schedule(() -> {
                    timedOut.set(true);
                    closeQuietly(body);
                }, settings.timeout().toNanos(), TimeUnit.NANOSECONDS);
                return new Answer(body, deadline, timedOut, what);
            }
            String error;
            try (body) {
                error = errorText(new String(body.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                error = "no readable error body";
            }
            boolean retryable = status == 408 || status == 409 || status == 429 || status >= 500;
            if (retryable && !last) {
                pause(backoff(attempt, response.headers().firstValue("Retry-After").orElse(null)));
                continue;
            }
            throw new ModelCallException(server() + " answered the " + what + " with HTTP " + status + ": " + error
                    + (retryable ? retried() : ""), status, null);
        }
    }

    private void readStream(Answer answer, ReplyAssembler reply, String what) throws ModelCallException {
        try (BufferedReader lines = answer.lines()) {
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (!data.isEmpty() && !event(data.toString(), reply, what)) {
                        return;
                    }
                    data.setLength(0);
                } else if (line.startsWith("data:")) {
                    if (!data.isEmpty()) {
                        data.append('\n');
                    }
                    data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                }
                // other fields (event:, id:, retry:) and comments (":") carry nothing a reply needs
            }
            if (!data.isEmpty()) {
                event(data.toString(), reply, what);
            }
        } catch (IOException e) {
            throw answer.readFailure(e);
        }
    }

    /** One server-sent event of a streamed reply; false at {@code [DONE]}. */
    private boolean event(String data, ReplyAssembler reply, String what) throws ModelCallException {
        if (data.strip().equals("[DONE]")) {
            return false;
        }
        JsonNode chunk = parse(data, what);
        if (chunk.has("error")) {
            // The stream itself began with HTTP 200, so there is no error status to report.
            throw new ModelCallException(server() + " reported an error while streaming the " + what + ": "
                    + errorText(chunk), null);
        }
        reply.model(text(chunk.get("model")));
        reply.usage(chunk.get("usage"));
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asLong(0) != 0) {
                continue; // only one choice is ever asked for
            }
            JsonNode delta = choice.path("delta");
            if (delta.isObject()) {
                reply.reasoningFrom(delta);
                if (delta.path("content").isTextual()) {
                    reply.content(delta.get("content").asText());
                }
                for (JsonNode call : delta.path("tool_calls")) {
                    JsonNode function = call.path("function");
                    reply.toolCall(call.path("index").isNumber() ? call.get("index").asLong() : null,
                            text(call.get("id")), text(function.get("name")), arguments(function.get("arguments")));
                }
            }
            reply.finishReason(text(choice.get("finish_reason")));
        }
        return true;
    }

    private void readWhole(String body, ReplyAssembler reply, String what) throws ModelCallException {
        JsonNode completion = parse(body, what);
        reply.model(text(completion.get("model")));
        reply.usage(completion.get("usage"));
        JsonNode choice = completion.path("choices").path(0);
        if (choice.isMissingNode()) {
            throw unreadable(what, "the reply has no choices");
        }
        JsonNode message = choice.get("message");
        if (message == null || !message.isObject()) {
            throw unreadable(what, "the reply's choice has no message");
        }
        reply.reasoningFrom(message);
        if (message.path("content").isTextual()) {
            reply.content(message.get("content").asText());
        }
        long index = 0;
        for (JsonNode call : message.path("tool_calls")) {
            String type = text(call.get("type"));
            if (type != null && !type.equals("function")) {
                LOG.warn("ignoring a {} (non-function) tool call from {}: {}", type, settings.baseUrl(), call);
                continue;
            }
            // A server that leaves "type" out still means a function call.
            JsonNode function = call.path("function");
            reply.toolCall(index++, text(call.get("id")), text(function.get("name")),
                    arguments(function.get("arguments")));
        }
        reply.finishReason(text(choice.get("finish_reason")));
    }

    private JsonNode parse(String json, String what) throws ModelCallException {
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw unreadable(what, "the reply is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw unreadable(what, "not JSON: " + e.getOriginalMessage());
        }
    }

    private ModelCallException unreadable(String what, String why) {
        return new ModelCallException(server() + " sent a " + what + " reply that could not be read: " + why, null);
    }

    /** A text field, or null when absent, null or not text. */
    private static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : null;
    }

    /**
     * Tool-call arguments as text. OpenAI sends a JSON string; a few servers send the JSON object itself, which is
     * turned back into JSON text.
     */
    private static String arguments(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return node.isTextual() ? node.asText() : node.toString();
    }

    private Duration backoff(int attempt, String retryAfter) {
        if (retryAfter != null) {
            try {
                Duration asked = Duration.ofSeconds(Long.parseLong(retryAfter.strip()));
                if (!asked.isNegative() && asked.compareTo(MAX_RETRY_AFTER) <= 0) {
                    return asked;
                }
            } catch (NumberFormatException notSeconds) {
                // an HTTP date: rare from model servers; the usual backoff applies
            }
        }
        long base = Math.min(MAX_BACKOFF.toMillis(), 500L << Math.min(attempt, 10));
        return Duration.ofMillis((long) (base * (0.75 + 0.25 * ThreadLocalRandom.current().nextDouble())));
    }

    private static void pause(Duration d) throws ModelCallException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelCallException("interrupted while waiting to retry", e);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // ending a read is all that was wanted
        }
    }

    private String server() {
        return "model server at " + settings.baseUrl();
    }

    private String retried() {
        int retries = settings.maxRetries();
        return retries == 0 ? "" : " (after " + retries + (retries == 1 ? " retry)" : " retries)");
    }

    private String timeoutText(IOException e) {
        return "no complete answer within " + settings.timeout() + " (" + e.getMessage() + ")";
    }

    private String describeIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return "connection refused (is the server running and is the URL right?)";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host " + t.getMessage();
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof HttpConnectTimeoutException) {
                return "could not connect within " + settings.timeout();
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** The server's own words: {@code error.message} of an OpenAI-style error body, else the body itself. */
    private static String errorText(String body) {
        if (body == null || body.isBlank()) {
            return "no error body";
        }
        try {
            JsonNode json = JSON.readTree(body);
            if (json != null && json.isObject()) {
                return errorText(json);
            }
        } catch (JsonProcessingException notJson) {
            // a proxy's plain-text page: quoted as it is
        }
        return abbreviate(body.strip());
    }

    private static String errorText(JsonNode body) {
        JsonNode error = body.get("error");
        String message = error != null && error.isObject() ? text(error.get("message"))
                : error != null && error.isTextual() ? error.asText() : text(body.get("message"));
        return abbreviate(message != null ? message : body.toString());
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
