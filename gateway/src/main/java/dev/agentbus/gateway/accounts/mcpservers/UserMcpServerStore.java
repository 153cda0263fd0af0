package dev.agentbus.gateway.accounts.mcpservers;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.mcp.UserMcpServers;
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
import java.util.function.Predicate;

/**
 * The users' own MCP servers on {@code agentbus.user-mcp-servers}: the gateway is its only writer (a record per
 * change, a tombstone for none) and keeps a view of it to answer GETs and to wait for its own writes, so a GET
 * right after a PUT sees the change. The sandbox-worker reads the same topic to start the servers.
 */
@Singleton
class UserMcpServerStore {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final CompactedTopicView<UserMcpServers> view;
    private final KafkaProducer<String, byte[]> producer;

    UserMcpServerStore(KafkaSettings kafka) throws InterruptedException {
        this.view = new CompactedTopicView<>(kafka, Topics.USER_MCP_SERVERS.name(), "gateway-user-mcp-servers",
                bytes -> EventCodec.decodeValue(bytes, UserMcpServers.class)).start();
        this.producer = new KafkaProducer<>(kafka.producer("gateway-user-mcp-servers"));
        view.awaitCaughtUp(Duration.ofSeconds(60));
    }

    Optional<UserMcpServers> of(String userId) {
        return view.get(userId);
    }

    /** Writes the servers and waits until the view has them. @return false when the view did not catch up in time */
    boolean put(UserMcpServers servers) throws InterruptedException {
        send(new ProducerRecord<>(Topics.USER_MCP_SERVERS.name(), servers.userId(), EventCodec.encodeValue(servers)));
        return await(servers.userId(), s -> s.isPresent() && s.get().version() >= servers.version());
    }

    /** Removes the user's servers (a tombstone). */
    boolean remove(String userId) throws InterruptedException {
        send(new ProducerRecord<>(Topics.USER_MCP_SERVERS.name(), userId, null));
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

    private boolean await(String userId, Predicate<Optional<UserMcpServers>> done) throws InterruptedException {
        return view.awaitValue(userId, done, WAIT);
    }

    @PreDestroy
    void close() {
        producer.close(Duration.ofSeconds(2));
        view.close();
    }
}
