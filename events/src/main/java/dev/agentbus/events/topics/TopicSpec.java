package dev.agentbus.events.topics;

import java.time.Duration;

/**
 * One topic: its name, what its key is, what its values are, and how long Kafka keeps it.
 *
 * @param retention null keeps records forever (the durable logs); compacted topics keep the latest per key
 */
public record TopicSpec(String name, String key, Class<?> valueType, boolean compacted, Duration retention,
                        String purpose) {
}
