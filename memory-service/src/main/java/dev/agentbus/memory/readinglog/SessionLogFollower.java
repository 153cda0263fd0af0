package dev.agentbus.memory.readinglog;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * How the memory-service's readers of the session log (the distiller, the usage counter) follow it: every partition
 * from the start, without a group, and only once the insight sets are read to their end, since what was done before
 * must be known before the first event is looked at, or it would be done again. An event that cannot be read is
 * logged and skipped: the log is ours, so it is a bug to look at, not input to stop on.
 */
public final class SessionLogFollower {
    private static final Logger LOG = LoggerFactory.getLogger(SessionLogFollower.class);

    private SessionLogFollower() {
    }

    /**
     * Runs in {@code loop} until it stops: waits for {@code insights} to catch up, then hands every event of the log
     * to {@code apply} with the record it came in.
     */
    public static void follow(ServiceLoop loop, KafkaSettings kafka, String clientId, CompactedTopicView<?> insights,
                              BiConsumer<EventEnvelope, ConsumerRecord<String, byte[]>> apply) {
        try {
            while (!insights.awaitCaughtUp(Duration.ofSeconds(5))) {
                if (!loop.running()) {
                    return;
                }
                LOG.info("{} waits for {} before reading the session log", clientId, Topics.USER_INSIGHTS.name());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Partitions.follow(loop, kafka, clientId, Topics.SESSION_EVENTS.name(), true, r -> {
            EventEnvelope e;
            try {
                e = EventCodec.decodeEvent(r.value());
            } catch (RuntimeException ex) {
                LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(),
                        ex.getMessage());
                return;
            }
            apply.accept(e, r);
        }, () -> { });
    }
}
