package dev.agentbus.eventbus.processing;

import dev.agentbus.eventbus.DeadLetters;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The processor's bookkeeping, one iteration at a time, without a broker: which offsets commit, with what, when a
 * transaction is opened at all, what happens to a record that cannot be read, and when after-commit actions run.
 *
 * <p>The clients are kafka-clients' own {@link MockProducer} and {@link MockConsumer}: test doubles of the client
 * shipped with Kafka, which record transactions and offsets sent to them. They say nothing about the broker, which is
 * what {@code TransactionalProcessorIT} is for.
 */
class ProcessorRunTest {
    static final String IN = "test-in";
    static final TopicPartition P0 = new TopicPartition(IN, 0);
    static final TopicPartition P1 = new TopicPartition(IN, 1);

    final MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
            new ByteArraySerializer());
    final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    final AtomicBoolean running = new AtomicBoolean(true);
    final Echo handler = new Echo();

    /** Sends "<value>!" to test-out for every record; records what it was given and what ran after commits. */
    static final class Echo implements Handler<String> {
        final List<String> handled = new ArrayList<>();
        final List<String> afterCommit = new ArrayList<>();
        final List<String> calls = new ArrayList<>();
        RuntimeException failOn;
        java.util.function.BiConsumer<Outbox, LoopContext> eachIteration = (out, loop) -> { };
        java.util.function.BiConsumer<Collection<TopicPartition>, LoopContext> onRevoked = (p, loop) -> { };

        @Override
        public void onStart() {
            calls.add("start");
        }

        @Override
        public void handle(List<Decoded<String>> records, Outbox out, LoopContext loop) {
            for (Decoded<String> d : records) {
                handled.add(d.value());
                out.send(new ProducerRecord<>("test-out", d.record().key(), bytes(d.value() + "!")));
                out.afterCommit(() -> afterCommit.add(d.value()));
                if (failOn != null) {
                    throw failOn;
                }
            }
        }

        @Override
        public void onIteration(Outbox out, LoopContext loop) {
            eachIteration.accept(out, loop);
        }

        @Override
        public void onAssigned(Collection<TopicPartition> partitions, LoopContext loop) {
            calls.add("assigned " + partitions.size());
        }

        @Override
        public void onRevoked(Collection<TopicPartition> partitions, LoopContext loop) {
            onRevoked.accept(partitions, loop);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Reads "poison" as a record that cannot be read at all. */
    static String decode(ConsumerRecord<String, byte[]> r) {
        String value = text(r.value());
        if (value.equals("poison")) {
            throw new MalformedRecordException("not an envelope: poison");
        }
        return value;
    }

    ProcessorRun<String> run(ProcessorSettings.Unreadable unreadable) {
        return run(unreadable, Duration.ZERO);
    }

    ProcessorRun<String> run(ProcessorSettings.Unreadable unreadable, Duration heldOffsets) {
        ProcessorRun<String> run = new ProcessorRun<>(new ProcessorSettings("test-loop", "test-service", IN,
                Duration.ofMillis(10), unreadable, heldOffsets), producer, consumer, ProcessorRunTest::decode,
                handler, running::get);
        run.start();
        consumer.rebalance(List.of(P0, P1));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        return run;
    }

    void arrive(TopicPartition p, long offset, String value) {
        consumer.addRecord(new ConsumerRecord<>(IN, p.partition(), offset, "k", bytes(value)));
    }

    List<String> committedOutput() {
        return producer.history().stream().filter(r -> r.topic().equals("test-out")).map(r -> text(r.value()))
                .toList();
    }

    Map<TopicPartition, OffsetAndMetadata> lastCommittedOffsets() {
        var history = producer.consumerGroupOffsetsHistory();
        return history.getLast().values().iterator().next();
    }

    @BeforeEach
    void clean() {
        handler.handled.clear();
    }

    @Test
    void the_output_and_the_offsets_past_every_record_commit_in_one_transaction() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        arrive(P0, 0, "a");
        arrive(P0, 1, "b");
        arrive(P1, 0, "c");

        run.iteration();

        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(committedOutput()).containsExactlyInAnyOrder("a!", "b!", "c!");
        assertThat(lastCommittedOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(
                P0, new OffsetAndMetadata(2), P1, new OffsetAndMetadata(1)));
        assertThat(handler.afterCommit).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(handler.calls).containsExactly("start", "assigned 2");
    }

    @Test
    void an_unreadable_record_is_dead_lettered_with_its_reason_and_the_consumer_moves_past_it() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        arrive(P0, 0, "a");
        arrive(P0, 1, "poison");
        arrive(P0, 2, "b");

        run.iteration();

        assertThat(handler.handled).containsExactly("a", "b");
        ProducerRecord<String, byte[]> dead = producer.history().stream()
                .filter(r -> r.topic().equals(Topics.DEAD_LETTER.name())).findFirst().orElseThrow();
        assertThat(text(dead.value())).isEqualTo("poison");
        assertThat(text(dead.headers().lastHeader(DeadLetters.REASON).value())).isEqualTo("not an envelope: poison");
        assertThat(text(dead.headers().lastHeader(DeadLetters.SOURCE_OFFSET).value())).isEqualTo("1");
        assertThat(text(dead.headers().lastHeader(DeadLetters.CONSUMER).value())).isEqualTo("test-service");
        assertThat(lastCommittedOffsets()).containsEntry(P0, new OffsetAndMetadata(3));
        assertThat(producer.commitCount()).isEqualTo(1);
    }

    @Test
    void a_service_that_skips_unreadable_records_writes_no_dead_letter_but_still_moves_past_them() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.SKIP);
        arrive(P0, 0, "poison");

        run.iteration();

        assertThat(handler.handled).isEmpty();
        assertThat(producer.history()).isEmpty();
        assertThat(lastCommittedOffsets()).containsEntry(P0, new OffsetAndMetadata(1));
    }

    @Test
    void an_empty_poll_with_nothing_to_write_opens_no_transaction_and_still_runs_the_actions() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        List<String> ran = new ArrayList<>();
        handler.eachIteration = (out, loop) -> out.afterCommit(() -> ran.add("action"));

        run.iteration();

        assertThat(producer.commitCount()).isZero();
        assertThat(producer.transactionInFlight()).isFalse();
        assertThat(ran).containsExactly("action");
    }

    @Test
    void work_not_caused_by_a_record_is_written_in_the_batchs_transaction() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.eachIteration = (out, loop) -> out.send(new ProducerRecord<>("test-out", "k", bytes("finished!")));
        arrive(P0, 0, "a");

        run.iteration();

        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(committedOutput()).containsExactly("a!", "finished!");
    }

    @Test
    void a_failed_commit_aborts_everything_and_runs_no_after_commit_action() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        producer.commitTransactionException = new KafkaException("broker gone");
        arrive(P0, 0, "a");

        assertThatThrownBy(run::iteration).hasMessage("broker gone");

        assertThat(producer.transactionAborted()).isTrue();
        assertThat(committedOutput()).isEmpty();
        assertThat(handler.afterCommit).isEmpty();
    }

    @Test
    void a_handler_that_throws_aborts_what_it_sent_before() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.failOn = new IllegalStateException("a bug");
        arrive(P0, 0, "a");

        assertThatThrownBy(run::iteration).hasMessage("a bug");

        assertThat(producer.transactionAborted()).isTrue();
        assertThat(committedOutput()).isEmpty();
        assertThat(producer.consumerGroupOffsetsHistory()).isEmpty();
        assertThat(handler.afterCommit).isEmpty();
    }

    @Test
    void a_wake_up_ends_the_poll_and_the_iteration_still_writes_its_work() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.eachIteration = (out, loop) -> out.send(new ProducerRecord<>("test-out", "k", bytes("reported")));
        consumer.wakeup();

        run.iteration();

        assertThat(committedOutput()).containsExactly("reported");
    }

    @Test
    void writes_with_nothing_consumed_commit_the_positions_too_so_a_member_that_lost_its_partitions_is_fenced() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        arrive(P0, 0, "a");
        run.iteration();
        handler.eachIteration = (out, loop) -> out.send(new ProducerRecord<>("test-out", "k", bytes("answered")));
        consumer.wakeup();

        run.iteration();

        assertThat(committedOutput()).containsExactly("a!", "answered");
        assertThat(producer.commitCount()).isEqualTo(2);
        // the same offsets again: nothing moves, but the group coordinator checks the generation they carry
        assertThat(lastCommittedOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(
                P0, new OffsetAndMetadata(1), P1, new OffsetAndMetadata(0)));
    }

    @Test
    void held_offsets_open_no_transaction_of_their_own_and_commit_with_the_next_one() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.SKIP, Duration.ofHours(1));
        arrive(P0, 0, "poison"); // read, nothing written

        run.iteration();

        assertThat(producer.commitCount()).isZero();
        assertThat(producer.transactionInFlight()).isFalse();

        arrive(P1, 0, "a");
        run.iteration();

        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(lastCommittedOffsets()).containsExactlyInAnyOrderEntriesOf(Map.of(
                P0, new OffsetAndMetadata(1), P1, new OffsetAndMetadata(1)));
    }

    @Test
    void held_offsets_commit_once_they_have_waited_long_enough() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.SKIP, Duration.ofNanos(1));
        arrive(P0, 0, "poison");

        run.iteration();

        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(lastCommittedOffsets()).containsEntry(P0, new OffsetAndMetadata(1));
    }

    @Test
    void held_offsets_of_partitions_that_leave_commit_before_they_go() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.SKIP, Duration.ofHours(1));
        arrive(P0, 0, "poison");
        arrive(P0, 1, "poison");
        run.iteration();
        assertThat(producer.commitCount()).isZero();

        consumer.rebalance(List.of(P1));

        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(lastCommittedOffsets()).containsEntry(P0, new OffsetAndMetadata(2));
    }

    @Test
    void a_wake_up_while_closing_ends_the_iteration_without_writing() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.eachIteration = (out, loop) -> out.send(new ProducerRecord<>("test-out", "k", bytes("reported")));
        running.set(false);
        consumer.wakeup();

        run.iteration();

        assertThat(producer.commitCount()).isZero();
    }

    @Test
    void a_rebalance_callback_writes_in_a_transaction_of_its_own() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.onRevoked = (partitions, loop) -> loop.inTransaction(out ->
                out.send(new ProducerRecord<>("test-out", "k", bytes("handed over " + partitions.size()))));
        run.iteration();

        consumer.rebalance(List.of(P0));

        assertThat(committedOutput()).containsExactly("handed over 1");
        assertThat(producer.commitCount()).isEqualTo(1);
    }

    @Test
    void a_transaction_of_its_own_is_refused_while_a_batch_is_handled() {
        ProcessorRun<String> run = run(ProcessorSettings.Unreadable.DEAD_LETTER);
        handler.eachIteration = (out, loop) -> loop.inTransaction(own -> { });

        assertThatThrownBy(run::iteration).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("send to its Outbox");
    }
}
