package dev.agentbus.gateway.accounts.mcpservers;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.mcp.UserMcpServers;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.accounts.UserRecordTopic;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import java.util.Optional;

/**
 * The users' own MCP servers on {@code agentbus.user-mcp-servers} (a {@link UserRecordTopic}: the gateway is its only
 * writer); the sandbox-worker reads the same topic to start the servers.
 */
@Singleton
class UserMcpServerStore {
    private final UserRecordTopic<UserMcpServers> topic;

    UserMcpServerStore(KafkaSettings kafka) throws InterruptedException {
        this.topic = new UserRecordTopic<>(kafka, Topics.USER_MCP_SERVERS, "gateway-user-mcp-servers",
                UserMcpServers.class, UserMcpServers::userId, UserMcpServers::version);
    }

    Optional<UserMcpServers> of(String userId) {
        return topic.of(userId);
    }

    /** Writes the servers and waits until the view has them. @return false when the view did not catch up in time */
    boolean put(UserMcpServers servers) throws InterruptedException {
        return topic.put(servers);
    }

    /** No servers of the user's own any more (a tombstone). */
    boolean remove(String userId) throws InterruptedException {
        return topic.remove(userId);
    }

    @PreDestroy
    void close() {
        topic.close();
    }
}
