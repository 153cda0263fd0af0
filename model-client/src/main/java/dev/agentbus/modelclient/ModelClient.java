package dev.agentbus.modelclient;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;

import java.net.http.HttpRequest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
 * <p>What this client adds is tolerance for the ways real servers differ from OpenAI: reasoning in a
 * {@code reasoning_content} (or {@code reasoning}) field or in {@code <think>} blocks inside the content,
 * missing tool-call ids or types, arguments sent as a JSON object or as {@code ""} for a no-arg tool, tool calls
 * written as text, missing usage, plain-text error bodies, and an unnamed model (taken from {@code GET /models}).
 *
 * <p>This class only puts one call together; each step is its own class: {@link RequestWriter} writes the request,
 * {@link ModelServerConnection} sends it (with {@link RetryPolicy}, and {@link CallFailures} for the words of a
 * failure), {@link StreamedReplyReader} or {@link WholeReplyReader} read the answer into a {@link ReplyAssembler},
 * and {@link TextToolCalls} reads calls written as text. {@link ServerModels} remembers what the server says about
 * its models.
 *
 * <p>It used the official {@code openai-java} SDK before; a profile of the agent loop found that SDK spending about
 * 5 ms of CPU per call on building and converting request objects (the agent's whole tool catalog, every call), more
 * than the rest of the orchestrator. This writes the request straight to bytes and reuses the tool catalog's JSON.
 *
 * <p>Thread-safe: one instance can serve concurrent calls.
 */
public final class ModelClient implements AutoCloseable {

    private final ModelSettings settings;
    private final ModelServerConnection server;
    private final RequestWriter requests = new RequestWriter();
    private final StreamedReplyReader streamed;
    private final WholeReplyReader whole;
    private final ServerModels models;

    /** A client of the operator's model server ({@code llm.*}): trusted as configured, its errors quoted. */
    public ModelClient(ModelSettings settings) {
        this(settings, null);
    }

    /**
     * A client of a model server a user chose: each attempt is checked against {@code policy} first, and the server's
     * error answers are shown as their status and a fixed reason, never their body.
     *
     * @param policy the rule for the user's URL; null for the operator's server
     */
    public ModelClient(ModelSettings settings, OutgoingPolicy policy) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.server = new ModelServerConnection(settings, policy);
        this.streamed = new StreamedReplyReader(server.failures());
        this.whole = new WholeReplyReader(server.failures(), settings.baseUrl());
        this.models = new ServerModels(settings, server);
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
        HttpRequest.Builder request = server.request("/chat/completions")
                .header("Content-Type", "application/json")
                .header("Accept", settings.stream() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        ReplyAssembler reply = new ReplyAssembler(model, deltas);
        String what = "chat completion";
        try (ReplyBody answer = server.send(what, request)) {
            if (settings.stream()) {
                streamed.read(answer, reply, what);
            } else {
                whole.read(answer.text(), reply, what);
            }
        }
        return TextToolCalls.withTextToolCalls(reply.finish(), toolList);
    }

    /**
     * The model name requests use: the configured one, or else the first model the server lists under
     * {@code GET /models} (asked once, then cached), skipping embedding models because LM Studio lists
     * those next to chat models.
     */
    public String resolveModel() throws ModelCallException {
        return models.resolveModel();
    }

    /**
     * The model's context window as the server says (see {@link ContextWindowProbe} for where each kind of server
     * says it), asked at the first call and then remembered; empty when the server does not say. Never throws: a
     * server that cannot be asked simply does not say.
     */
    public Optional<ContextWindow> contextWindow() {
        return models.contextWindow();
    }

    /**
     * What {@code model} can do as the server says ({@link CapabilityProbe}), asked once per model and remembered;
     * {@link ModelCapabilities#UNKNOWN} where the server does not say (asked again after a few minutes). Never throws.
     */
    public ModelCapabilities capabilities(String model) {
        return models.capabilities(model);
    }

    @Override
    public void close() {
        server.close();
    }
}
