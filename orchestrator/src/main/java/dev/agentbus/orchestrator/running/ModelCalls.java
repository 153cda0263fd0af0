package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.input.SessionInput.RecordContextSummary;
import dev.agentbus.events.input.SessionInput.RecordModelFailure;
import dev.agentbus.events.input.SessionInput.RecordModelRefusal;
import dev.agentbus.events.state.Message;
import dev.agentbus.modelclient.ModelCapabilities;
import dev.agentbus.orchestrator.config.ModelCapabilitySettings;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.session.PromptMeasure;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.modelclient.CallSettings;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.modelclient.ContextWindow;
import dev.agentbus.modelclient.DeltaListener;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import dev.agentbus.modelclient.ModelReply;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import dev.agentbus.orchestrator.prompting.SummaryPrompt;
import dev.agentbus.telemetry.logging.LogContext;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the "call the model" effect on virtual threads. The outcome is not recorded here: it is handed to the
 * {@link SessionEngine} as an input ({@code record_model_result.v1} or {@code record_model_failure.v1}), which records
 * it, in order with the session's other inputs, in its next transaction. So a crash between the model's answer and
 * its recording loses nothing but the call, which is made again (it has no side effects); a recorded answer is never
 * asked for again (invariant 3). Token deltas go to the stream topic as they come (invariant 5).
 *
 * <p>The answer is handed over in memory, not through {@code agentbus.session-inputs}: the call was started by this
 * engine, for a partition it owns, and its answer goes back to the same engine. A round trip through Kafka (a send, a
 * fetch, a poll) added about 10 ms to every step and made the answer no more durable: it is durable once recorded.
 */
final class ModelCalls implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ModelCalls.class);

    private final ModelServers servers;
    private final PromptBuilder prompts;
    private final KafkaProducer<String, byte[]> producer;
    private final Answers answers;
    private final Clock clock;
    private final long windowSetting;
    private final AttachedImages images;
    private final ModelCapabilitySettings capabilities;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** The calls running here, by request id, so a cancelled turn's stream can be stopped. */
    private final Map<String, Future<?>> running = new ConcurrentHashMap<>();
    private final Set<String> stopped = ConcurrentHashMap.newKeySet();

    /** Where an answered call goes: the engine, which records it. Called on the call's thread. */
    interface Answers {
        void answered(InputEnvelope outcome, SpanContext trace);
    }

    ModelCalls(KafkaSettings kafka, ModelServers servers, PromptBuilder prompts, Clock clock, Answers answers) {
        this(kafka, servers, prompts, clock, answers, 0);
    }

    /** @param windowSetting the context window of a server that tells none ({@code agentbus.context.window}), 0: unknown */
    ModelCalls(KafkaSettings kafka, ModelServers servers, PromptBuilder prompts, Clock clock, Answers answers,
               long windowSetting) {
        this(kafka, servers, prompts, clock, answers, windowSetting, null, null);
    }

    /**
     * @param images       the images attached to messages ({@code agentbus.session-images}); null: none can be sent
     * @param capabilities the installation's word on models and how reasoning controls are sent; null: the defaults
     */
    ModelCalls(KafkaSettings kafka, ModelServers servers, PromptBuilder prompts, Clock clock, Answers answers,
               long windowSetting, AttachedImages images, ModelCapabilitySettings capabilities) {
        this.images = images;
        this.capabilities = capabilities != null ? capabilities
                : new ModelCapabilitySettings("", "", CallSettings.BUDGET_FIELD, 30);
        this.windowSetting = windowSetting;
        this.servers = servers;
        this.prompts = prompts;
        this.clock = clock;
        this.answers = answers;
        this.producer = new KafkaProducer<>(kafka.producer("orchestrator-effects"));
    }

    boolean isInFlight(String requestId) {
        return inFlight.contains(requestId);
    }

    /** Starts the call unless it is already running in this process. */
    void start(String requestId, SessionState state, SpanContext trace) {
        run(requestId, () -> call(requestId, state, trace));
    }

    /**
     * Starts the summarising call of the compaction {@code requestId} (see {@link SummaryPrompt}) unless it is
     * already running here. Its answer goes to the engine as {@code record_context_summary.v1}, to be recorded once.
     */
    void summarise(String requestId, SessionState state, SpanContext trace) {
        run(requestId, () -> summary(requestId, state, trace));
    }

    private void run(String requestId, Runnable work) {
        if (!inFlight.add(requestId)) {
            return;
        }
        // Registered before it runs, so a stop that comes at once still finds it; the task waits for the
        // registration, so its own clean-up cannot run before it.
        java.util.concurrent.CountDownLatch registered = new java.util.concurrent.CountDownLatch(1);
        running.put(requestId, threads.submit(() -> {
            try {
                registered.await();
                work.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.remove(requestId);
                inFlight.remove(requestId);
                stopped.remove(requestId);
            }
        }));
        registered.countDown();
    }

    /**
     * Stops a call running here: its thread is interrupted, which ends the blocking read of the streamed answer and
     * closes the connection, so the model server stops generating. Its outcome is not handed to the engine.
     */
    void stop(String requestId) {
        Future<?> call = running.get(requestId);
        if (call != null) {
            stopped.add(requestId);
            call.cancel(true);
            LOG.info("model call {} stopped: its turn ended", requestId);
        }
    }

    /** The call as a span (child of the step that asked for it) and in the model metrics. */
    private void call(String requestId, SessionState state, SpanContext step) {
        try (Traced span = Tracing.child("orchestrator model call", SpanKind.CLIENT, step)
                .attribute("agentbus.session_id", state.sessionId()).attribute("agentbus.request_id", requestId);
             LogContext log = LogContext.of(state.sessionId(), span.context())) {
            long started = System.nanoTime();
            SessionInput outcome = callModel(requestId, state, span.context());
            if (outcome instanceof RecordModelResult r) {
                AgentbusMetrics.modelCall(Duration.ofNanos(System.nanoTime() - started), true,
                        r.measure() == null ? 0 : r.measure().promptTokens(),
                        r.measure() == null ? 0 : r.measure().completionTokens());
            } else if (outcome instanceof RecordModelFailure f) {
                AgentbusMetrics.modelCall(Duration.ofNanos(System.nanoTime() - started), false, 0, 0);
                span.failed(f.message());
            }
        }
    }

    /** The outcome handed to the engine, or null when none was (the call was stopped). */
    private SessionInput callModel(String requestId, SessionState state, SpanContext trace) {
        String sessionId = state.sessionId();
        SessionInput outcome;
        try {
            ModelClient client = servers.forUser(state.userId());
            CallSettings asked = asked(state, capabilities.thinkingBudgetField());
            String model = asked.model() != null ? asked.model()
                    : client.settings().model().isBlank() ? state.lastModel() : client.settings().model();
            Map<Long, List<ChatMessage.Image>> attached;
            try {
                attached = imagesFor(state, client, asked, model);
            } catch (AttachedImages.Unreadable refused) {
                LOG.info("model call {} of session {} refused: {}", requestId, sessionId, refused.getMessage());
                return answer(requestId, state, new RecordModelRefusal(requestId, model, refused.getMessage()), trace);
            }
            List<ChatMessage> prompt = prompts.build(state, clock.instant(), model,
                    u -> attached.getOrDefault(u.seq(), List.of()));
            ModelReply reply = client.complete(asked, prompt, PromptBuilder.tools(state),
                    new DeltaListener() {
                        @Override
                        public void onContent(String text) {
                            stream(sessionId, StreamChunk.Kind.TOKEN, requestId, text, trace);
                        }

                        @Override
                        public void onReasoning(String text) {
                            stream(sessionId, StreamChunk.Kind.REASONING, requestId, text, trace);
                        }
                    });
            outcome = new RecordModelResult(requestId, reply.model(), reply.content(), reply.reasoning(),
                    reply.toolCalls().stream().map(c -> new ToolCallSpec(c.id(), c.name(), c.argumentsJson())).toList(),
                    new TokenUsage(reply.usage().prompt(), reply.usage().completion(), reply.usage().total()),
                    reply.finishReason(), measure(client, prompt, reply));
        } catch (ModelCallException e) {
            if (stopped.contains(requestId)) {
                return null; // stopped on purpose (see stop); not a failure of the server
            }
            LOG.warn("model call {} of session {} failed: {}", requestId, sessionId, e.getMessage());
            outcome = new RecordModelFailure(requestId, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("model call {} of session {} failed unexpectedly", requestId, sessionId, e);
            outcome = new RecordModelFailure(requestId, "unexpected error: " + e);
        }
        return answer(requestId, state, outcome, trace);
    }

    private SessionInput answer(String requestId, SessionState state, SessionInput outcome, SpanContext trace) {
        if (stopped.contains(requestId) || Thread.currentThread().isInterrupted()) {
            return null; // the turn ended without it; the decider would ignore the outcome anyway
        }
        if (!threads.isShutdown()) {
            answers.answered(new InputEnvelope(UUID.randomUUID().toString(), state.sessionId(), clock.instant(),
                    requestId, state.userId(), outcome), trace);
        }
        return outcome;
    }

    /**
     * The images of the conversation's messages, by the message's seq; empty when it has none. Refused (no call is
     * made) when the model does not take images, or nobody says it does, or an image cannot be read: a vision
     * request to a model without vision fails on some servers and is silently stripped on others.
     */
    private Map<Long, List<ChatMessage.Image>> imagesFor(SessionState state, ModelClient client, CallSettings asked,
                                                         String model)
            throws AttachedImages.Unreadable, ModelCallException {
        List<Message.User> withImages = state.messages().stream()
                .filter(m -> m instanceof Message.User u && !u.imagePaths().isEmpty())
                .map(m -> (Message.User) m).toList();
        if (withImages.isEmpty()) {
            return Map.of();
        }
        String name = model != null ? model : client.resolveModel();
        ModelCapabilities told = client.capabilities(name);
        Boolean vision = told.vision() != null ? told.vision() : capabilities.declaresVision(name);
        if (!Boolean.TRUE.equals(vision)) {
            throw new AttachedImages.Unreadable(vision == null
                    ? "the conversation has images, and nobody says whether the model " + name + " takes them: its "
                    + "server does not tell, and agentbus.models.vision does not name it; choose a vision model "
                    + "for the session or name this one there"
                    : "the model " + name + " does not take images (" + (told.vision() != null ? told.source()
                    + " says so" : "agentbus.models.no-vision names it") + "); choose a vision model for the "
                    + "session (PUT /api/v1/sessions/{id}/model) and send the message again");
        }
        if (images == null) {
            throw new AttachedImages.Unreadable("this orchestrator reads no images");
        }
        Map<Long, List<ChatMessage.Image>> found = new java.util.HashMap<>();
        try {
            for (Message.User u : withImages) {
                found.put(u.seq(), images.of(state.sessionId(), u));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AttachedImages.Unreadable("interrupted while waiting for the images");
        }
        return found;
    }

    /**
     * What the decider recorded this call asks for ({@code model_call.started.v1}, folded into the state): the same
     * when the call is made again after a crash. A call recorded before models could be chosen asks for nothing of
     * its own: the client's settings apply, as they did then.
     */
    static CallSettings asked(SessionState state) {
        return asked(state, null);
    }

    /** @param budgetField where the server reads a thinking budget ({@code agentbus.models.thinking-budget-field}) */
    static CallSettings asked(SessionState state, String budgetField) {
        ModelChoice asked = state.models().asked();
        if (asked == null) {
            return CallSettings.NONE;
        }
        return new CallSettings(asked.model(), asked.sampling().temperature(), asked.sampling().topP(),
                asked.sampling().maxTokens(), asked.sampling().reasoningEffort(), asked.sampling().thinkingBudget(),
                budgetField);
    }

    /**
     * How full the window was: the reported usage, else an estimate from the characters sent and received (about
     * four a token, tools included); the window as the server tells it, else the setting.
     */
    private PromptMeasure measure(ModelClient client, List<ChatMessage> prompt, ModelReply reply) {
        boolean estimated = reply.usage().prompt() <= 0;
        long promptTokens = reply.usage().prompt();
        long completionTokens = reply.usage().completion();
        if (estimated) {
            long chars = PromptBuilder.toolsJsonLength();
            for (ChatMessage m : prompt) {
                chars += switch (m) {
                    case ChatMessage.System s -> s.content().length();
                    case ChatMessage.User u -> u.content().length();
                    case ChatMessage.Assistant a -> a.content().length()
                            + a.toolCalls().stream().mapToLong(c -> c.argumentsJson().length()).sum();
                    case ChatMessage.ToolResult r -> r.content().length();
                };
            }
            promptTokens = chars / 4;
            completionTokens = (reply.content().length()
                    + reply.toolCalls().stream().mapToLong(c -> c.argumentsJson().length()).sum()) / 4;
        }
        Optional<ContextWindow> window = client.contextWindow();
        return new PromptMeasure(promptTokens, completionTokens, estimated,
                window.map(ContextWindow::tokens).orElse(windowSetting),
                window.map(ContextWindow::source).orElse(windowSetting > 0 ? "setting" : "unknown"));
    }

    /** On the call's thread: the summary, or why there is none, handed to the engine like a model answer. */
    private void summary(String requestId, SessionState state, SpanContext trace) {
        SessionInput outcome;
        try {
            ModelReply reply = servers.forUser(state.userId()).complete(SummaryPrompt.build(state), List.of(), null);
            outcome = new RecordContextSummary(requestId, reply.content(),
                    new TokenUsage(reply.usage().prompt(), reply.usage().completion(), reply.usage().total()), null);
        } catch (ModelCallException e) {
            if (stopped.contains(requestId)) {
                return;
            }
            LOG.warn("summary {} of session {} failed: {}", requestId, state.sessionId(), e.getMessage());
            outcome = new RecordContextSummary(requestId, null, null, "the summarising call failed: "
                    + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("summary {} of session {} failed unexpectedly", requestId, state.sessionId(), e);
            outcome = new RecordContextSummary(requestId, null, null, "unexpected error: " + e);
        }
        if (!threads.isShutdown() && !Thread.currentThread().isInterrupted()) {
            answers.answered(new InputEnvelope(UUID.randomUUID().toString(), state.sessionId(), clock.instant(),
                    requestId, state.userId(), outcome), trace);
        }
    }

    private void stream(String sessionId, StreamChunk.Kind kind, String ref, String text, SpanContext trace) {
        if (text == null || text.isEmpty()) {
            return;
        }
        producer.send(Records.streamChunk(new StreamChunk(sessionId, kind, ref, text, clock.instant()), trace));
    }

    @Override
    public void close() {
        threads.shutdownNow();
        producer.close(java.time.Duration.ofSeconds(2));
    }
}
