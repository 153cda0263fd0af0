package dev.agentbus.gateway.readmodels;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

/**
 * Writes session events to the real log as the orchestrator would (same record builder, keyed by session, seq
 * counted per session), so the read-model tests need no orchestrator and can write any history, any user.
 */
public final class LogWriter implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;
    private final Map<String, Long> seqs = new HashMap<>();
    private Instant clock = Instant.parse("2026-11-20T09:00:00Z");

    public LogWriter(KafkaSettings kafka) {
        this.producer = new KafkaProducer<>(kafka.producer("test-log-writer"));
    }

    /** Appends the event with the session's next seq, one second after the previous event. */
    public EventEnvelope append(String sessionId, String userId, SessionEvent event) {
        clock = clock.plusSeconds(1);
        return appendAt(sessionId, userId, event, clock);
    }

    public EventEnvelope appendAt(String sessionId, String userId, SessionEvent event, Instant time) {
        long seq = seqs.merge(sessionId, 1L, Long::sum);
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), sessionId, seq, time, null, userId, event);
        send(Records.event(e, "test", TraceHeaders.newTrace()));
        return e;
    }

    /** Bytes that are no event at all, as a buggy writer could leave them. */
    public void appendGarbage(String sessionId, byte[] value) {
        send(new ProducerRecord<>(Topics.SESSION_EVENTS.name(), sessionId, value));
    }

    private void send(ProducerRecord<String, byte[]> record) {
        try {
            producer.send(record).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
