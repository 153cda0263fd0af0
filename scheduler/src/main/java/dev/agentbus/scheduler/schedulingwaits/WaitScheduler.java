package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

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

    public WaitScheduler(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.producer = new KafkaProducer<>(kafka.producer("scheduler"));
        this.alarms = new Alarms(clock, (input, done) -> producer.send(
                Records.input(input, "scheduler", TraceHeaders.newTrace()), (meta, error) -> done.accept(error)));
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
        alarms.apply(e);
    }

    @Override
    public void close() {
        loop.close();
        alarms.close();
        producer.close(Duration.ofSeconds(2));
    }
}
