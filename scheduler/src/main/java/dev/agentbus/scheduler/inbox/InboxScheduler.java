package dev.agentbus.scheduler.inbox;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * Follows {@code agentbus.inbox} from its start (so queued tasks are rebuilt at each start, with no state of its own
 * to lose) and hands each record to the {@link InboxTimers}; this class only connects them to Kafka.
 */
final class InboxScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InboxScheduler.class);

    private final KafkaSettings kafka;
    private final KafkaProducer<String, byte[]> producer;
    private final InboxTimers timers;
    private final ServiceLoop loop;

    InboxScheduler(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.producer = new KafkaProducer<>(kafka.producer("scheduler-inbox"));
        this.timers = new InboxTimers(clock, (input, done) -> producer.send(
                Records.input(input, "scheduler", TraceHeaders.newTrace()), (meta, error) -> done.accept(error)));
        this.loop = new ServiceLoop("scheduler-inbox", this::follow);
    }

    void start() {
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        Partitions.follow(loop, kafka, "scheduler-inbox", Topics.INBOX.name(), true, this::apply, () -> { });
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        InboxTask task;
        try {
            task = r.value() == null ? null : EventCodec.decodeValue(r.value(), InboxTask.class);
        } catch (RuntimeException e) {
            LOG.warn("unreadable inbox task at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(),
                    e.getMessage());
            return;
        }
        timers.apply(r.key(), task);
    }

    @Override
    public void close() {
        loop.close();
        timers.close();
        producer.close(Duration.ofSeconds(2));
    }
}
