package dev.agentbus.eventbus.processing;

import java.time.Duration;
import java.util.Objects;

/**
 * @param name        the loop's thread name, as it shows in logs and thread dumps
 * @param service     the service that consumes, named in the header of each record it dead-letters
 * @param topic       the topic to consume, with the group of the consumer settings
 * @param pollTimeout how long a poll waits for records. Work not triggered by a record waits at most this long to
 *                    be written, unless the processor is {@linkplain TransactionalProcessor#wake() woken}
 * @param unreadable  what to do with a record the decoder cannot read
 * @param heldOffsets how long the offsets of a poll that wrote nothing may wait to be committed, so that they
 *                    commit with a later transaction instead of one of their own. Zero: every poll commits. Only
 *                    for a consumer that reads many records it does nothing with and for which reading a record
 *                    again after a crash changes nothing (the sandbox-worker: its ledger knows every call it took
 *                    on). On the critical path of each step, a transaction for offsets alone held up the next poll.
 */
public record ProcessorSettings(String name, String service, String topic, Duration pollTimeout,
                                Unreadable unreadable, Duration heldOffsets) {

    /** Every poll commits its offsets. */
    public ProcessorSettings(String name, String service, String topic, Duration pollTimeout, Unreadable unreadable) {
        this(name, service, topic, pollTimeout, unreadable, Duration.ZERO);
    }

    /** What a record the decoder cannot read is to its consumer. */
    public enum Unreadable {
        /** Input this service is the reader of: parked on the dead-letter topic with the reason (invariant 6). */
        DEAD_LETTER,
        /**
         * A record of a topic many services read, which is not this one's to move: logged and skipped (the service
         * whose input it is dead-letters it).
         */
        SKIP
    }

    public ProcessorSettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(unreadable, "unreadable");
        if (pollTimeout == null || pollTimeout.isNegative() || pollTimeout.isZero()) {
            throw new IllegalArgumentException("the poll time-out must be positive, not " + pollTimeout);
        }
        if (heldOffsets == null || heldOffsets.isNegative()) {
            throw new IllegalArgumentException("held offsets wait zero or more, not " + heldOffsets);
        }
    }
}
