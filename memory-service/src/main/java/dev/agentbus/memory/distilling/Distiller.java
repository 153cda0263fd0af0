package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.telemetry.logging.LogContext;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.memory.readinglog.SessionLogFollower;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Follows the session log, and for each turn that ended {@code COMPLETED} asks the model what it says about the
 * user, then sends what it found to the insight keeper as a {@code RecordDistillation} command: the keeper stays the
 * single writer of the insight sets, and applies a person's edits and the distiller's findings in one order.
 *
 * <p>Like the scheduler, it reads the whole log at every start, without a consumer group: it needs the start of a
 * turn to distil its end. What was done is known from the insight sets, which record per session the last turn
 * distilled, so after a restart no turn is sent to the model again once its command was applied. A malformed answer
 * is logged and recorded as distilled with nothing learned, never asked again. A model server that fails (after the
 * client's retries) leaves the turn undistilled until the next start; it is not retried in a loop.
 */
final class Distiller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Distiller.class);

    private final KafkaSettings kafka;
    private final Extractor extractor;
    private final CompactedTopicView<InsightSet> insights;
    private final KafkaProducer<String, byte[]> producer;
    private final TurnCollector turns = new TurnCollector();
    /** Per session, the last turn end sent this run, which the insight view may not show yet. */
    private final Map<String, Long> sent = new HashMap<>();
    private final ServiceLoop loop;

    Distiller(KafkaSettings kafka, ModelClient model, DistillSettings settings) {
        this.kafka = kafka;
        this.extractor = new Extractor(model, settings.maxTurnChars());
        this.insights = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "memory-distiller-insights",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class));
        this.producer = new KafkaProducer<>(kafka.producer("memory-distiller"));
        this.loop = new ServiceLoop("memory-distiller", this::follow);
    }

    void start() {
        insights.start();
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        turns.clear();
        sent.clear();
        // What was distilled before must be known before the first turn is looked at, or it would be asked again.
        SessionLogFollower.follow(loop, kafka, "memory-distiller", insights,
                (e, r) -> turns.apply(e).ifPresent(turn -> distil(turn, r)));
    }

    private void distil(CompletedTurn turn, ConsumerRecord<String, byte[]> r) {
        if (turn.userId() == null || done(turn)) {
            return;
        }
        // A span for the distillation, child of the event that ended the turn: the turn's trace reaches here.
        try (Traced span = Tracing.consume("memory-service distil turn", r.headers())
                .attribute("agentbus.session_id", turn.sessionId());
             LogContext log = LogContext.of(turn.sessionId(), span.context())) {
            distil(turn, span);
        }
    }

    private void distil(CompletedTurn turn, Traced span) {
        List<InsightCommand.Extracted> found;
        try {
            found = extractor.extract(turn);
        } catch (ModelCallException ex) {
            LOG.warn("distilling turn {}@{} failed, left for the next start: {}", turn.sessionId(),
                    turn.turnEndSeq(), ex.getMessage());
            return;
        }
        var command = Extractor.command(turn, found);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), turn.userId(),
                EventCodec.encodeValue(command));
        TraceHeaders.inject(span.context(), record.headers());
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException ex) {
            // The loop restarts and reads the log again; the turn is still undistilled then.
            throw new IllegalStateException("could not send the distillation of " + turn.sessionId() + "@"
                    + turn.turnEndSeq(), ex);
        }
        sent.merge(turn.sessionId(), turn.turnEndSeq(), Math::max);
        LOG.info("turn {}@{} of user {} distilled: {} insights", turn.sessionId(), turn.turnEndSeq(), turn.userId(),
                found.size());
    }

    private boolean done(CompletedTurn turn) {
        return sent.getOrDefault(turn.sessionId(), 0L) >= turn.turnEndSeq()
                || insights.get(turn.userId()).map(s -> s.distilled(turn.sessionId(), turn.turnEndSeq())).orElse(false);
    }

    @Override
    public void close() {
        loop.close();
        insights.close();
        producer.close(Duration.ofSeconds(2));
        extractor.close();
    }
}
