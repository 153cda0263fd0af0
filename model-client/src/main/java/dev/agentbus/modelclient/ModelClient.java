package dev.agentbus.modelclient;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.models.Model;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Talks to one OpenAI-compatible chat completion server (LM Studio, Ollama, vLLM, llama.cpp, a hosted
 * API) with native tool calling, on top of the official {@code openai-java} SDK.
 *
 * <p>The SDK does the HTTP, the SSE parsing, the time-outs and the retries. Retries: the SDK's own, up
 * to {@link ModelSettings#maxRetries()} more attempts on connection failures and on HTTP 408, 409, 429
 * and 5xx, with exponential backoff (about 0.5 s, 1 s, 2 s … capped at 8 s, with jitter, or what the
 * server's {@code Retry-After} asks). A streamed call is only retried before its first byte: a stream
 * that breaks half way fails, because its deltas have already been passed on.
 *
 * <p>What this class adds is tolerance for the ways real servers differ from OpenAI: reasoning in a
 * {@code reasoning_content} (or {@code reasoning}) field or in {@code <think>} blocks inside the content,
 * missing tool-call ids, {@code ""} as the arguments of a no-arg tool, missing usage, and an unnamed
 * model (taken from {@code GET /models}).
 *
 * <p>Thread-safe: one instance can serve concurrent calls. Close it to release the connection pool.
 */
public final class ModelClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ModelClient.class);
    /** The SDK refuses to build without a key; local servers ignore whatever is sent. */
    private static final String PLACEHOLDER_API_KEY = "not-needed";

    private final ModelSettings settings;
    private final OpenAIClient client;
    private final Object modelLock = new Object();
    private volatile String resolvedModel;

    public ModelClient(ModelSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = OpenAIOkHttpClient.builder()
                .baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey().isBlank() ? PLACEHOLDER_API_KEY : settings.apiKey())
                // One limit per attempt, covering connect, the wait for the first token and reading a
                // streamed reply to its end (OkHttp's call timeout).
                .timeout(settings.timeout())
                .maxRetries(settings.maxRetries())
                .build();
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
        Objects.requireNonNull(messages, "messages");
        List<ToolDefinition> toolList = tools == null ? List.of() : tools;
        DeltaListener deltas = listener == null ? DeltaListener.NONE : listener;
        String model = resolveModel();
        ChatCompletionCreateParams params = RequestMapper.params(model, settings, messages, toolList);
        try {
            return settings.stream() ? streamed(params, model, deltas) : whole(params, model, deltas);
        } catch (OpenAIException e) {
            throw failure("chat completion", e);
        }
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
                List<String> ids;
                try {
                    ids = client.models().list().items().stream()
                            .map(Model::_id)
                            .flatMap(id -> id.asKnown().stream())
                            .filter(id -> !id.isBlank())
                            .toList();
                } catch (OpenAIException e) {
                    throw failure("listing models", e);
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

    @Override
    public void close() {
        client.close();
    }

    private ModelReply streamed(ChatCompletionCreateParams params, String model, DeltaListener deltas) {
        ReplyAssembler reply = new ReplyAssembler(model, deltas);
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                reply.model(chunk._model().asKnown().orElse(null));
                chunk._usage().asKnown().ifPresent(reply::usage);
                for (ChatCompletionChunk.Choice choice : chunk._choices().asKnown().orElse(List.of())) {
                    if (choice._index().asKnown().orElse(0L) != 0L) {
                        continue; // only one choice is ever asked for
                    }
                    choice._delta().asKnown().ifPresent(delta -> {
                        reply.reasoningFrom(delta._additionalProperties());
                        delta._content().asKnown().ifPresent(reply::content);
                        for (ChatCompletionChunk.Choice.Delta.ToolCall call : delta._toolCalls().asKnown().orElse(List.of())) {
                            Optional<ChatCompletionChunk.Choice.Delta.ToolCall.Function> function = call._function().asKnown();
                            reply.toolCall(
                                    call._index().asKnown().orElse(null),
                                    call._id().asKnown().orElse(null),
                                    function.flatMap(f -> f._name().asKnown()).orElse(null),
                                    function.map(f -> JsonValues.arguments(f._arguments())).orElse(null));
                        }
                    });
                    choice._finishReason().asKnown().ifPresent(reason -> reply.finishReason(reason.asString()));
                }
            });
        }
        return reply.finish();
    }

    private ModelReply whole(ChatCompletionCreateParams params, String model, DeltaListener deltas) {
        ChatCompletion completion = client.chat().completions().create(params);
        ReplyAssembler reply = new ReplyAssembler(model, deltas);
        reply.model(completion._model().asKnown().orElse(null));
        completion._usage().asKnown().ifPresent(reply::usage);
        ChatCompletion.Choice choice = completion._choices().asKnown().orElse(List.of()).stream()
                .findFirst()
                .orElseThrow(() -> new OpenAIInvalidDataException("the reply has no choices"));
        ChatCompletionMessage message = choice._message().asKnown()
                .orElseThrow(() -> new OpenAIInvalidDataException("the reply's choice has no message"));
        reply.reasoningFrom(message._additionalProperties());
        message._content().asKnown().ifPresent(reply::content);
        long index = 0;
        for (ChatCompletionMessageToolCall call : message._toolCalls().asKnown().orElse(List.of())) {
            if (call.function().isPresent()) {
                var function = call.function().get();
                var definition = function._function().asKnown();
                reply.toolCall(index++,
                        function._id().asKnown().orElse(null),
                        definition.flatMap(f -> f._name().asKnown()).orElse(null),
                        definition.map(f -> JsonValues.arguments(f._arguments())).orElse(null));
            } else if (call.isCustom()) {
                LOG.warn("ignoring a custom (non-function) tool call from {}: {}", settings.baseUrl(), call);
            } else {
                // The SDK picks the tool-call variant by its "type"; servers that leave "type" out get
                // neither variant, so the call is read from its raw JSON instead of being lost.
                Map<String, JsonValue> raw = call._json().flatMap(JsonValues::object).orElse(Map.of());
                Map<String, JsonValue> function = JsonValues.object(raw.get("function")).orElse(Map.of());
                reply.toolCall(index++,
                        JsonValues.string(raw.get("id")).orElse(null),
                        JsonValues.string(function.get("name")).orElse(null),
                        JsonValues.argumentsText(function.get("arguments")));
            }
        }
        choice._finishReason().asKnown().ifPresent(reason -> reply.finishReason(reason.asString()));
        return reply.finish();
    }

    /** Says which server, what was being done and why it failed, in words an operator can act on. */
    private ModelCallException failure(String what, OpenAIException e) {
        String server = "model server at " + settings.baseUrl();
        int retries = settings.maxRetries();
        String retried = retries == 0 ? "" : " (after " + retries + (retries == 1 ? " retry)" : " retries)");
        if (e instanceof SseException sse) {
            // The stream itself began with HTTP 200, so there is no error status to report.
            return new ModelCallException(server + " reported an error while streaming the " + what + ": "
                    + errorText(sse.body()), e);
        }
        if (e instanceof OpenAIServiceException service) {
            int status = service.statusCode();
            boolean retryable = status == 408 || status == 409 || status == 429 || status >= 500;
            return new ModelCallException(server + " answered the " + what + " with HTTP " + status + ": "
                    + errorText(service.body()) + (retryable ? retried : ""), status, e);
        }
        if (e instanceof OpenAIIoException) {
            return new ModelCallException(server + " did not answer the " + what + ": " + describeIo(e) + retried, e);
        }
        if (e instanceof OpenAIInvalidDataException) {
            return new ModelCallException(server + " sent a " + what + " reply that could not be read: " + e.getMessage(), e);
        }
        return new ModelCallException(server + ": " + what + " failed: " + e.getMessage(), e);
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
            if (t instanceof InterruptedIOException) {
                // OkHttp's call timeout and socket read timeouts both end up here.
                return "no complete answer within " + settings.timeout() + " (" + t.getMessage() + ")";
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** The server's own words: {@code error.message} of an OpenAI-style error body, else the body itself. */
    private static String errorText(JsonValue body) {
        Optional<Map<String, JsonValue>> object = JsonValues.object(body);
        if (object.isPresent()) {
            JsonValue error = object.get().get("error");
            Optional<String> message = JsonValues.object(error).flatMap(e -> JsonValues.string(e.get("message")))
                    .or(() -> JsonValues.string(error))
                    .or(() -> JsonValues.string(object.get().get("message")));
            return abbreviate(message.orElse(body.toString()));
        }
        Optional<String> text = JsonValues.string(body).filter(s -> !s.isBlank());
        if (text.isPresent()) {
            return abbreviate(text.get());
        }
        // The SDK reads error bodies only as JSON; a plain-text body (a proxy's "Bad gateway") is lost
        // before it reaches us, so say that instead of echoing the SDK's "502: null".
        return "no JSON error body";
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
