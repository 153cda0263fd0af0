package dev.agentbus.sandbox.mcp;

import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.eventbus.secrets.SecretSettings;
import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.events.mcp.UserMcpServers;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A user's servers as the worker reads them from {@code agentbus.user-mcp-servers}: the values the gateway sealed
 * open with the same key for the same user only, and a user's server is never trusted whatever the record says.
 */
class UserMcpConfigsTest {
    static final SecretBox KEY = box(7);
    static final SecretBox OTHER_KEY = box(9);

    static SecretBox box(int seed) {
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) seed);
        return SecretBox.load(new SecretSettings(Base64.getEncoder().encodeToString(key), ""));
    }

    static UserMcpServers sealedFor(String owner, SecretBox box, boolean trusted) {
        McpServerConfig server = new McpServerConfig("mine", "user", "srv", List.of("-v"),
                Map.of("TOKEN", "sk-user-secret"), null, Map.of(), trusted);
        McpServerConfig remote = new McpServerConfig("remote", "user", null, List.of(), Map.of(),
                "https://mcp.example.com/mcp", Map.of("Authorization", "Bearer tok-user"), false);
        return new UserMcpServers(owner, List.of(server, remote).stream()
                .map(s -> s.withSecrets((name, value) -> box.seal(value, owner))).toList(), 1, Instant.EPOCH);
    }

    @Test
    void the_sealed_values_open_for_their_owner_with_the_installations_key() {
        UserMcpServers record = sealedFor("carol", KEY, false);
        assertThat(record.servers().getFirst().env().get("TOKEN")).startsWith("v1:").doesNotContain("sk-user");

        List<McpServerConfig> opened = UserMcpConfigs.open(Optional.of(record), KEY);

        assertThat(opened.get(0).env()).isEqualTo(Map.of("TOKEN", "sk-user-secret"));
        assertThat(opened.get(0).args()).containsExactly("-v");
        assertThat(opened.get(1).headers()).isEqualTo(Map.of("Authorization", "Bearer tok-user"));
        assertThat(opened).extracting(McpServerConfig::source).containsOnly("user");
        assertThat(opened.toString()).doesNotContain("sk-user-secret").doesNotContain("tok-user");
        assertThat(UserMcpConfigs.open(Optional.empty(), KEY)).isEmpty();
    }

    @Test
    void a_user_server_is_never_trusted_whatever_the_record_says() {
        assertThat(UserMcpConfigs.open(Optional.of(sealedFor("carol", KEY, true)), KEY).getFirst().trusted())
                .isFalse();
    }

    @Test
    void values_sealed_with_another_key_or_for_another_user_do_not_open_and_the_reason_names_no_secret() {
        UserMcpServers otherKey = sealedFor("carol", OTHER_KEY, false);
        assertThatThrownBy(() -> UserMcpConfigs.open(Optional.of(otherKey), KEY))
                .isInstanceOf(McpConfigException.class).hasMessageContaining("AGENTBUS_SECRET_KEY")
                .hasMessageNotContaining("sk-user");
        // Dave's record carrying values sealed for Carol (copied across): they are bound to Carol.
        UserMcpServers carols = sealedFor("carol", KEY, false);
        UserMcpServers copied = new UserMcpServers("dave", carols.servers(), 1, Instant.EPOCH);
        assertThatThrownBy(() -> UserMcpConfigs.open(Optional.of(copied), KEY))
                .isInstanceOf(McpConfigException.class);
    }
}
