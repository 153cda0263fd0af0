package dev.agentbus.gateway.accounts.modelserver;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.events.topics.Topics;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The users' own model servers on {@code agentbus.user-models}: the gateway is its only writer (a record per
 * change, a tombstone to go back to the team's server) and keeps a view of it to answer GETs and to wait for its
 * own writes, so a GET right after a PUT sees the change.
 */
@Singleton
class UserModels {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final CompactedTopicView<UserModelSettings> view;
    private final KafkaProducer<String, byte[]> producer;

    UserModels(KafkaSettings kafka) throws InterruptedException {
        this.view = new CompactedTopicView<>(kafka, Topics.USER_MODELS.name(), "gateway-user-models",
                bytes -> EventCodec.decodeValue(bytes, UserModelSettings.class)).start();
        this.producer = new KafkaProducer<>(kafka.producer("gateway-user-models"));
        view.awaitCaughtUp(Duration.ofSeconds(60));
    }

    Optional<UserModelSettings> of(String userId) {
        return view.get(userId);
    }

    /** Writes the settings and waits until the view has them. @return false when the view did not catch up in time */
    boolean put(UserModelSettings settings) throws InterruptedException {
        send(new ProducerRecord<>(Topics.USER_MODELS.name(), settings.userId(), EventCodec.encodeValue(settings)));
        return await(settings.userId(), s -> s.isPresent() && s.get().version() >= settings.version());
    }

    /** Removes the user's settings (a tombstone). */
    boolean remove(String userId) throws InterruptedException {
        send(new ProducerRecord<>(Topics.USER_MODELS.name(), userId, null));
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

    private boolean await(String userId, java.util.function.Predicate<Optional<UserModelSettings>> done)
            throws InterruptedException {
        return view.awaitValue(userId, done, WAIT);
    }

    @PreDestroy
    void close() {
        producer.close(Duration.ofSeconds(2));
        view.close();
    }
}
