package dev.agentbus.sandbox.mcp;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.events.mcp.UserMcpServers;
import dev.agentbus.events.topics.Topics;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The users' own MCP servers, as the gateway wrote them on {@code agentbus.user-mcp-servers}, with their environment
 * and header values opened ({@link SecretBox}, the installation's key: the same the gateway sealed them with). The
 * opened values exist only in this worker's memory, for the launcher; they are never logged or reported.
 */
public final class UserMcpConfigs implements AutoCloseable {
    /** A user's servers, opened; none for a user who configured none. */
    @FunctionalInterface
    public interface Lookup {
        /** @throws McpConfigException when the servers cannot be used (their values do not open) */
        List<McpServerConfig> of(String userId);
    }

    /** For a worker (or a test) that serves no user servers. */
    public static final Lookup NONE = userId -> List.of();

    private final CompactedTopicView<UserMcpServers> view;
    private final SecretBox secrets;

    private UserMcpConfigs(CompactedTopicView<UserMcpServers> view, SecretBox secrets) {
        this.view = view;
        this.secrets = secrets;
    }

    /** Reads the topic to its end before it answers, so a session started now gets its owner's servers. */
    public static UserMcpConfigs follow(KafkaSettings kafka, SecretBox secrets) throws InterruptedException {
        CompactedTopicView<UserMcpServers> view = new CompactedTopicView<>(kafka, Topics.USER_MCP_SERVERS.name(),
                "sandbox-worker-user-mcp-servers",
                bytes -> EventCodec.decodeValue(bytes, UserMcpServers.class)).start();
        if (!view.awaitCaughtUp(Duration.ofSeconds(60))) {
            view.close();
            throw new IllegalStateException("could not read " + Topics.USER_MCP_SERVERS.name() + " within 60 s");
        }
        return new UserMcpConfigs(view, secrets);
    }

    /** Tells {@code userChanged} the id of every user whose servers change from now on (on the view's thread). */
    public void onChange(Consumer<String> userChanged) {
        view.onChange(userChanged);
    }

    public Lookup lookup() {
        return userId -> open(view.get(userId), secrets);
    }

    /**
     * The servers of a record, their values opened with the owner's id (a value copied from another user's record
     * does not open).
     *
     * @throws McpConfigException without the value, when one does not open (the worker's key is not the gateway's)
     */
    static List<McpServerConfig> open(Optional<UserMcpServers> record, SecretBox secrets) {
        if (record.isEmpty()) {
            return List.of();
        }
        String owner = record.get().userId();
        try {
            return record.get().servers().stream()
                    // Whatever the record says, a user's server is the user's and never trusted.
                    .map(s -> new McpServerConfig(s.name(), McpServerConfig.USER, s.command(), s.args(), s.env(),
                            s.url(), s.headers(), false))
                    .map(s -> s.withSecrets((name, sealed) -> secrets.open(sealed, owner)))
                    .toList();
        } catch (IllegalArgumentException e) {
            throw new McpConfigException("the user's MCP servers (PUT /api/v1/me/mcp-servers) cannot be used: "
                    + e.getMessage() + " (the sandbox-worker needs the gateway's AGENTBUS_SECRET_KEY)");
        }
    }

    @Override
    public void close() {
        view.close();
    }
}
