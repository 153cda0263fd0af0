package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.telemetry.metrics.AgentbusMetrics;
import dev.agentbus.telemetry.tracing.Traced;
import dev.agentbus.telemetry.tracing.Tracing;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows every partition of the session log from offset 0 (so pending waits and approvals are rebuilt at each start,
 * with no state of its own to lose) and hands each event to the {@link Alarms}, which fire the wake-ups and approval
 * time-outs; this class only connects them to Kafka.
 */
final class WaitScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WaitScheduler.class);

    private final KafkaSettings kafka;
    private final KafkaProducer<String, byte[]> producer;
    private final Alarms alarms;
    private final ServiceLoop loop;
    /** The traceparent of each session's last event, which a wake-up's span continues. */
    private final Map<String, SpanContext> lastTrace = new ConcurrentHashMap<>();

    public WaitScheduler(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.producer = new KafkaProducer<>(kafka.producer("scheduler"));
        this.alarms = new Alarms(clock, (input, done) -> {
            // The wake-up continues the trace of the session's last event (the wait or approval it ends).
            try (Traced span = Tracing.child("scheduler " + input.input().getClass().getSimpleName(),
                    SpanKind.PRODUCER, lastTrace.getOrDefault(input.sessionId(), SpanContext.getInvalid()))
                    .attribute("agentbus.session_id", input.sessionId())) {
                producer.send(Records.input(input, "scheduler", span.context()),
                        (meta, error) -> done.accept(error));
            }
        });
        AgentbusMetrics.approvalsPending(alarms::approvalsPending);
        this.loop = new ServiceLoop("scheduler-follower", this::follow);
    }

    public void start() {
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        alarms.clear();
        Partitions.follow(loop, kafka, "scheduler", Topics.SESSION_EVENTS.name(), true, this::apply, () -> { });
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        EventEnvelope e;
        try {
            e = EventCodec.decodeEvent(r.value());
        } catch (RuntimeException ex) {
            // The orchestrator dead-letters bad inputs; a bad event is not ours to move. Skip it.
            LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(), ex.getMessage());
            return;
        }
        lastTrace.put(e.sessionId(), TraceHeaders.parentOf(r.headers()));
        alarms.apply(e);
    }

    @Override
    public void close() {
        loop.close();
        alarms.close();
        producer.close(Duration.ofSeconds(2));
    }
}
