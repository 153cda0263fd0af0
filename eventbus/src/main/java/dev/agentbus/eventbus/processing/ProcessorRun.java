package dev.agentbus.eventbus.processing;

import dev.agentbus.events.codec.MalformedRecordException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One run of a {@link TransactionalProcessor}: the work done with one pair of clients, from
 * {@code initTransactions} to the last commit. Plain code over the client interfaces, so it can be driven one
 * iteration at a time in a test. Not thread-safe: the loop's thread only.
 */
final class ProcessorRun<T> implements LoopContext {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessorRun.class);

    private final ProcessorSettings settings;
    private final Producer<String, byte[]> producer;
    private final Consumer<String, byte[]> consumer;
    private final RecordDecoder<T> decoder;
    private final Handler<T> handler;
    private final BooleanSupplier running;
    /** True while the handler works on a batch, whose transaction may be open. */
    private boolean inBatch;
    /** Records were consumed whose offsets are not committed yet ({@link ProcessorSettings#heldOffsets()}). */
    private boolean offsetsHeld;
    private long lastOffsetCommit = System.nanoTime();

    ProcessorRun(ProcessorSettings settings, Producer<String, byte[]> producer, Consumer<String, byte[]> consumer,
                 RecordDecoder<T> decoder, Handler<T> handler, BooleanSupplier running) {
        this.settings = settings;
        this.producer = producer;
        this.consumer = consumer;
        this.decoder = decoder;
        this.handler = handler;
        this.running = running;
    }

    /** Fences any earlier producer with our transactional id (aborting what it left open), then subscribes. */
    void start() {
        producer.initTransactions();
        handler.onStart();
        consumer.subscribe(List.of(settings.topic()), new Rebalance());
    }

    /**
     * One poll and at most one transaction: the records' output, the work of {@link Handler#onIteration}, and the
     * offsets past every polled record commit together (a poll that wrote nothing may hold its offsets for a later
     * transaction, see {@link ProcessorSettings#heldOffsets()}); then the after-commit actions run.
     */
    void iteration() {
        ConsumerRecords<String, byte[]> records;
        try {
            records = consumer.poll(settings.pollTimeout());
        } catch (WakeupException woken) {
            if (!running.getAsBoolean()) {
                return; // closing: the loop ends, and Handler.onStop has the last word
            }
            records = ConsumerRecords.empty(); // TransactionalProcessor.wake(): there is work to write now
        }
        BatchTransaction batch = new BatchTransaction(producer, settings.service());
        List<Decoded<T>> decoded = new ArrayList<>(records.count());
        inBatch = true;
        try {
            for (ConsumerRecord<String, byte[]> record : records) {
                T value = decode(record, batch);
                if (value != null) {
                    decoded.add(new Decoded<>(record, value));
                }
            }
            if (!decoded.isEmpty()) {
                handler.handle(decoded, batch, this);
            }
            handler.onIteration(batch, this);
        } catch (RuntimeException e) {
            batch.abort(e);
            throw e;
        } finally {
            inBatch = false;
        }
        commit(batch, !records.isEmpty());
    }

    /**
     * What was sent commits with the consumer's positions on all its partitions: past every record handled so far,
     * in this batch or in one whose offsets were held. They go with every transaction, also one that consumed
     * nothing (writes of {@link Handler#onIteration} alone), because they make the group coordinator check our
     * generation (KIP-447): a member that lost its partitions in a rebalance it has not noticed yet is fenced, and
     * its transaction aborts, instead of writing next to the partitions' new owner.
     */
    private void commit(BatchTransaction batch, boolean consumedAny) {
        offsetsHeld |= consumedAny;
        boolean offsetsDue = offsetsHeld
                && System.nanoTime() - lastOffsetCommit >= settings.heldOffsets().toNanos();
        if (batch.begun() || offsetsDue) {
            batch.commit(positions(consumer.assignment()), consumer::groupMetadata);
            offsetsHeld = false;
            lastOffsetCommit = System.nanoTime();
        } else {
            batch.commit(Map.of(), consumer::groupMetadata);
        }
    }

    /** Held offsets of partitions about to leave, committed while this member still owns them. */
    private void commitHeldOffsets(Collection<TopicPartition> partitions) {
        if (offsetsHeld && !partitions.isEmpty()) {
            BatchTransaction own = new BatchTransaction(producer, settings.service());
            own.commit(positions(partitions), consumer::groupMetadata);
        }
    }

    /** Where the consumer is: every record before a position has been handled. */
    private Map<TopicPartition, OffsetAndMetadata> positions(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> at = new HashMap<>();
        for (TopicPartition tp : partitions) {
            at.put(tp, new OffsetAndMetadata(position(tp)));
        }
        return at;
    }

    /** What the decoder reads, or null when the record cannot be read and was dead-lettered or skipped. */
    private T decode(ConsumerRecord<String, byte[]> record, BatchTransaction batch) {
        try {
            return decoder.decode(record);
        } catch (MalformedRecordException e) {
            switch (settings.unreadable()) {
                case DEAD_LETTER -> batch.deadLetter(record, e.getMessage());
                case SKIP -> LOG.warn("{}: unreadable record at {}-{}@{} skipped: {}", settings.service(),
                        record.topic(), record.partition(), record.offset(), e.getMessage());
            }
            return null;
        }
    }

    /** The processor is closing: the handler's last writes, while the clients are still open. */
    void stop() {
        handler.onStop(this);
        try {
            commitHeldOffsets(consumer.assignment());
        } catch (RuntimeException e) {
            // Held offsets are only read again by the next owner, which changes nothing (see heldOffsets).
            LOG.debug("{}: held offsets not committed while closing: {}", settings.service(), e.toString());
        }
    }

    @Override
    public long position(TopicPartition partition) {
        return retryingWakeups(() -> consumer.position(partition));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return retryingWakeups(() -> consumer.endOffsets(partitions));
    }

    @Override
    public void inTransaction(java.util.function.Consumer<Outbox> work) {
        if (inBatch) {
            throw new IllegalStateException("a batch is being handled: send to its Outbox instead");
        }
        BatchTransaction own = new BatchTransaction(producer, settings.service());
        try {
            work.accept(own);
        } catch (RuntimeException e) {
            own.abort(e);
            throw e;
        }
        own.commit(Map.of(), consumer::groupMetadata);
    }

    @Override
    public Producer<String, byte[]> producer() {
        if (inBatch) {
            throw new IllegalStateException("a batch is being handled: send to its Outbox instead");
        }
        return producer;
    }

    /**
     * A {@link TransactionalProcessor#wake()} that lands while the handler asks the consumer something, inside a
     * rebalance callback say, must not cut that short: a callback that throws leaves its work half done and is not
     * called again. The wake-up only meant "stop waiting for records", so the question is asked again. When the
     * processor is closing, the wake-up is meant and goes on up.
     */
    private <R> R retryingWakeups(Supplier<R> question) {
        while (true) {
            try {
                return question.get();
            } catch (WakeupException e) {
                if (!running.getAsBoolean()) {
                    throw e;
                }
            }
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            handler.onAssigned(partitions, ProcessorRun.this);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            handler.onRevoked(partitions, ProcessorRun.this);
            commitHeldOffsets(partitions);
        }
    }
}
