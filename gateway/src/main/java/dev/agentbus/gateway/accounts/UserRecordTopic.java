package dev.agentbus.gateway.accounts;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.topics.TopicSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * One record per user on a compacted topic that the gateway alone writes (a user's own model server, their MCP
 * servers): a record per change, a tombstone for none. The gateway keeps a view of the topic to answer GETs and to
 * wait for its own writes, so a GET right after a PUT sees the change; the services that use the settings read the
 * same topic.
 */
public final class UserRecordTopic<T> implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String topic;
    private final Function<T, String> userOf;
    private final ToLongFunction<T> versionOf;
    private final CompactedTopicView<T> view;
    private final KafkaProducer<String, byte[]> producer;

    /**
     * @param clientId  names the view's consumer and the producer
     * @param userOf    the user a record belongs to (its key)
     * @param versionOf the record's version: one more for every change, so a writer knows when the view has its own
     */
    public UserRecordTopic(KafkaSettings kafka, TopicSpec topic, String clientId, Class<T> type,
                           Function<T, String> userOf, ToLongFunction<T> versionOf) throws InterruptedException {
        this.topic = topic.name();
        this.userOf = userOf;
        this.versionOf = versionOf;
        this.view = new CompactedTopicView<>(kafka, this.topic, clientId,
                bytes -> EventCodec.decodeValue(bytes, type)).start();
        this.producer = new KafkaProducer<>(kafka.producer(clientId));
        view.awaitCaughtUp(Duration.ofSeconds(60));
    }

    public Optional<T> of(String userId) {
        return view.get(userId);
    }

    /** Writes the record and waits until the view has it. @return false when the view did not catch up in time */
    public boolean put(T record) throws InterruptedException {
        String userId = userOf.apply(record);
        long version = versionOf.applyAsLong(record);
        send(new ProducerRecord<>(topic, userId, EventCodec.encodeValue(record)));
        return await(userId, r -> r.isPresent() && versionOf.applyAsLong(r.get()) >= version);
    }

    /** Removes the user's record (a tombstone). @return false when the view did not catch up in time */
    public boolean remove(String userId) throws InterruptedException {
        send(new ProducerRecord<>(topic, userId, null));
        return await(userId, Optional::isEmpty);
    }

    private void send(ProducerRecord<String, byte[]> record) {
        try {
            producer.send(record).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not take the change: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private boolean await(String userId, Predicate<Optional<T>> done) throws InterruptedException {
        return view.awaitValue(userId, done, WAIT);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
        view.close();
    }
}
