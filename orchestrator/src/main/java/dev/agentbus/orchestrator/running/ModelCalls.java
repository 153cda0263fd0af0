package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.input.SessionInput.RecordModelFailure;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.modelclient.DeltaListener;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import dev.agentbus.modelclient.ModelReply;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the "call the model" effect on virtual threads. The outcome is not recorded here: it is sent back as an
 * input ({@code record_model_result.v1} or {@code record_model_failure.v1}) and the engine records it, in order,
 * in its transaction. So a crash between the model's answer and its recording loses nothing but the call, which
 * may be made again (it has no side effects); a recorded answer is never asked for again (invariant 3).
 * Token deltas go to the stream topic as they come (invariant 5).
 */
final class ModelCalls implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ModelCalls.class);

    private final ModelClient client;
    private final PromptBuilder prompts;
    private final KafkaProducer<String, byte[]> producer;
    private final Clock clock;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    ModelCalls(KafkaSettings kafka, ModelClient client, PromptBuilder prompts, Clock clock) {
        this.client = client;
        this.prompts = prompts;
        this.clock = clock;
        this.producer = new KafkaProducer<>(kafka.producer("orchestrator-effects"));
    }

    boolean isInFlight(String requestId) {
        return inFlight.contains(requestId);
    }

    /** Starts the call unless it is already running in this process. */
    void start(String requestId, SessionState state, SpanContext trace) {
        if (!inFlight.add(requestId)) {
            return;
        }
        threads.submit(() -> {
            try {
                call(requestId, state, trace);
            } finally {
                inFlight.remove(requestId);
            }
        });
    }

    private void call(String requestId, SessionState state, SpanContext trace) {
        String sessionId = state.sessionId();
        SessionInput outcome;
        try {
            ModelReply reply = client.complete(prompts.build(state, clock.instant()), PromptBuilder.tools(),
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
                    reply.finishReason());
        } catch (ModelCallException e) {
            LOG.warn("model call {} of session {} failed: {}", requestId, sessionId, e.getMessage());
            outcome = new RecordModelFailure(requestId, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("model call {} of session {} failed unexpectedly", requestId, sessionId, e);
            outcome = new RecordModelFailure(requestId, "unexpected error: " + e);
        }
        InputEnvelope input = new InputEnvelope(UUID.randomUUID().toString(), sessionId, clock.instant(), requestId,
                state.userId(), outcome);
        ProducerRecord<String, byte[]> record = Records.input(input, "orchestrator", trace);
        // The answer is worth keeping: retry while Kafka is away rather than leave the session waiting forever.
        for (int attempt = 1; !threads.isShutdown(); attempt++) {
            try {
                producer.send(record).get();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.error("could not send the outcome of model call {} (attempt {}), retrying: {}", requestId,
                        attempt, e.toString());
                try {
                    Thread.sleep(Math.min(30_000, 1000L * attempt));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
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
