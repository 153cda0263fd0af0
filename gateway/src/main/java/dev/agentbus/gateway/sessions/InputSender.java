package dev.agentbus.gateway.sessions;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes people's requests to Kafka and waits for the broker's acknowledgement, so a 201/202 answer means the
 * request is durable. Each request starts a new trace.
 */
public final class InputSender implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;

    public InputSender(KafkaSettings kafka) {
        this.producer = new KafkaProducer<>(kafka.producer("gateway"));
    }

    public String send(String sessionId, String userId, SessionInput input) {
        String id = UUID.randomUUID().toString();
        send(sessionId, userId, id, input);
        return id;
    }

    /** With an input id chosen by the caller, who then knows which events the input caused. */
    public void send(String sessionId, String userId, String inputId, SessionInput input) {
        InputEnvelope envelope = new InputEnvelope(inputId, sessionId, Instant.now(), null, userId, input);
        // The turn's trace starts here: the span covers the request's write of the input to Kafka.
        try (Traced span = Tracing.root("gateway send " + input.getClass().getSimpleName(), SpanKind.PRODUCER)
                .attribute("agentbus.session_id", sessionId)) {
            publish(Records.input(envelope, "gateway", span.context()));
        }
    }

    public void send(MemoryCommand command) {
        var record = new ProducerRecord<>(Topics.MEMORY_COMMANDS.name(), command.userId(),
                EventCodec.encodeMemoryCommand(command));
        try (Traced span = Tracing.root("gateway send " + command.getClass().getSimpleName(), SpanKind.PRODUCER)) {
            TraceHeaders.inject(span.context(), record.headers());
            publish(record);
        }
    }

    /** Any other record the gateway alone writes (an inbox task; {@code value} null: a tombstone), durably. */
    public void sendRecord(String topic, String key, byte[] value) {
        var record = new ProducerRecord<>(topic, key, value);
        TraceHeaders.inject(TraceHeaders.newTrace(), record.headers());
        publish(record);
    }

    private void publish(ProducerRecord<String, byte[]> record) {
        try {
            producer.send(record).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while writing to Kafka", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not accept the request: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }

    /** The broker could not be reached; the client gets 503 and may retry. */
    public static final class KafkaUnavailableException extends RuntimeException {
        KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
