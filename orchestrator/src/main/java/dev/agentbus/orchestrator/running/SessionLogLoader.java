package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the state of every session in one partition by folding its committed events from offset 0. This is how
 * an orchestrator takes over a partition, after a crash or a rebalance: the log is the only truth.
 */
final class SessionLogLoader {
    private static final Logger LOG = LoggerFactory.getLogger(SessionLogLoader.class);

    private final KafkaSettings kafka;

    SessionLogLoader(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    Map<String, SessionState> load(int partition) {
        long started = System.nanoTime();
        Map<String, SessionState> states = new HashMap<>();
        TopicPartition tp = new TopicPartition(Topics.SESSION_EVENTS.name(), partition);
        // The previous owner's last transaction may be committed but its marker not yet written.
        Partitions.awaitStable(kafka, List.of(tp), Duration.ofSeconds(20));
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumer(null, "orchestrator-loader"))) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            // With read_committed this is the last stable offset: everything any writer has committed.
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            int count = 0;
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    try {
                        EventEnvelope e = EventCodec.decodeEvent(r.value());
                        states.compute(e.sessionId(), (id, old) ->
                                SessionFold.evolve(old == null ? SessionState.initial(id) : old, e));
                        count++;
                    } catch (MalformedRecordException ex) {
                        LOG.warn("unreadable event at {}@{} skipped: {}", tp, r.offset(), ex.getMessage());
                    }
                }
            }
            LOG.info("partition {}: folded {} events of {} sessions in {} ms", partition, count, states.size(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        return states;
    }
}
