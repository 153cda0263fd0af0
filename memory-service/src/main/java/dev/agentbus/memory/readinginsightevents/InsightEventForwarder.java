package dev.agentbus.memory.readinginsightevents;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.memory.readinglog.SessionLogFollower;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Follows the session log and sends the insight keeper a command for each injection, each vote and each change the
 * agent made with {@code manage_memory} ({@link InsightEventLedger}). Like the distiller it reads the whole log at every start without a consumer group (a vote
 * needs the injection of its turn, which may be far back), and skips what the insight sets show as counted already
 * ({@link InsightSet#counted}); the keeper skips it too, so a command sent twice around a restart counts once.
 */
final class InsightEventForwarder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InsightEventForwarder.class);

    private final KafkaSettings kafka;
    private final CompactedTopicView<InsightSet> insights;
    private final KafkaProducer<String, byte[]> producer;
    private final InsightEventLedger ledger = new InsightEventLedger();
    private final ServiceLoop loop;

    InsightEventForwarder(KafkaSettings kafka) {
        this.kafka = kafka;
        this.insights = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "memory-usage-insights",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class));
        this.producer = new KafkaProducer<>(kafka.producer("memory-usage"));
        this.loop = new ServiceLoop("memory-usage", this::follow);
    }

    void start() {
        insights.start();
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        ledger.clear();
        SessionLogFollower.follow(loop, kafka, "memory-usage", insights,
                (e, r) -> ledger.apply(e).ifPresent(command -> send(command, e, r)));
    }

    private void send(InsightCommand command, EventEnvelope e, ConsumerRecord<String, byte[]> r) {
        boolean counted = insights.get(command.userId()).map(s -> s.counted(e.sessionId(), e.seq())).orElse(false);
        if (counted) {
            return;
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), command.userId(),
                EventCodec.encodeValue(command));
        TraceHeaders.inject(TraceHeaders.continueFrom(r.headers()), record.headers());
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException ex) {
            // The loop restarts and reads the log again; the event is still uncounted then.
            throw new IllegalStateException("could not send the insight command for " + e.sessionId() + "@" + e.seq(), ex);
        }
    }

    @Override
    public void close() {
        loop.close();
        insights.close();
        producer.close(Duration.ofSeconds(2));
    }
}
