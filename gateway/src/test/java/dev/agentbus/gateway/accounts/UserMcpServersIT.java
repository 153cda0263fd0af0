package dev.agentbus.gateway.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.events.mcp.UserMcpServers;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code PUT/GET/DELETE /api/v1/me/mcp-servers} against a real broker, PostgreSQL and gateway: the configuration is
 * kept per user, shown with every secret hidden, stored on {@code agentbus.user-mcp-servers} with every secret
 * sealed for its owner, and bad input is a 400 naming the problem.
 */
class UserMcpServersIT {
    static final String ROUTE = "/api/v1/me/mcp-servers";
    static final String CONFIG = """
            {"mcpServers": {
              "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"],
                             "env": {"API_KEY": "sk-carol-secret"}, "comment": "ignored, as elsewhere"},
              "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer carol-token"}}
            }}""";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    static Client carol;
    static Client dave;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), TestPostgres.newDatabase(),
                Map.of("agentbus.admin-password", AccountsIT.ADMIN_PASSWORD));
        carol = newUser("carol");
        dave = newUser("dave");
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    static Client newUser(String username) {
        Client admin = Client.browser(gateway.url());
        admin.login("admin", AccountsIT.ADMIN_PASSWORD, null);
        String code = admin.post("/api/v1/admin/invites", Map.of()).json().get("code").asText();
        Client.browser(gateway.url()).post("/api/v1/auth/register", Map.of("invite", code, "username", username,
                "password", username + "-password-123"));
        Client user = Client.browser(gateway.url());
        assertThat(user.login(username, username + "-password-123", null).status()).isEqualTo(200);
        return user;
    }

    @Test
    void a_user_puts_gets_masked_and_deletes_their_servers_and_nobody_else_sees_them() throws Exception {
        Client.Response put = carol.put(ROUTE, CONFIG);
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(put.body()).doesNotContain("sk-carol-secret").doesNotContain("carol-token");

        // Right after the PUT (it waits for its own version): the configuration as given, every value hidden.
        JsonNode got = carol.get(ROUTE).json();
        assertThat(got.get("own").asBoolean()).isTrue();
        assertThat(got.get("version").asLong()).isEqualTo(1);
        JsonNode everything = got.get("mcpServers").get("everything");
        assertThat(everything.get("command").asText()).isEqualTo("npx");
        assertThat(everything.get("args").toString()).isEqualTo("[\"-y\",\"@modelcontextprotocol/server-everything\"]");
        assertThat(everything.get("env").toString()).isEqualTo("{\"API_KEY\":\"***\"}");
        JsonNode search = got.get("mcpServers").get("search");
        assertThat(search.get("url").asText()).isEqualTo("https://mcp.example.com/mcp");
        assertThat(search.get("headers").toString()).isEqualTo("{\"Authorization\":\"***\"}");
        assertThat(got.toString()).doesNotContain("sk-carol-secret").doesNotContain("carol-token")
                .doesNotContain("comment");

        // Dave has none, and cannot reach Carol's.
        JsonNode daves = dave.get(ROUTE).json();
        assertThat(daves.get("own").asBoolean()).isFalse();
        assertThat(daves.get("mcpServers").size()).isZero();
        assertThat(dave.get(ROUTE).body()).doesNotContain("everything");

        // On the topic: the values sealed for Carol, never in the clear.
        Map<String, byte[]> raw = CompactedTopicView.readToEnd(kafka(), Topics.USER_MCP_SERVERS.name(),
                "test-user-mcp-raw", bytes -> bytes);
        String userId = carolsId();
        assertThat(raw).containsKey(userId);
        String text = new String(raw.get(userId), StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("sk-carol-secret").doesNotContain("carol-token").contains("\"v1:");
        UserMcpServers stored = dev.agentbus.events.codec.EventCodec.decodeValue(raw.get(userId),
                UserMcpServers.class);
        SecretBox box = gateway.context().getBean(SecretBox.class);
        McpServerConfig storedEverything = stored.servers().getFirst();
        assertThat(storedEverything.source()).isEqualTo("user");
        assertThat(box.open(storedEverything.env().get("API_KEY"), userId)).isEqualTo("sk-carol-secret");
        assertThat(box.open(stored.servers().get(1).headers().get("Authorization"), userId))
                .isEqualTo("Bearer carol-token");

        // What GET showed, sent back with another variable added: a "***" keeps the value saved for that name.
        Client.Response kept = carol.put(ROUTE, Map.of("mcpServers", Map.of("everything", Map.of("command", "npx",
                "args", List.of("-y", "@modelcontextprotocol/server-everything"),
                "env", Map.of("API_KEY", "***", "DEBUG", "1")))));
        assertThat(kept.status()).as(kept.body()).isEqualTo(200);
        UserMcpServers keptStored = dev.agentbus.events.codec.EventCodec.decodeValue(CompactedTopicView.readToEnd(
                kafka(), Topics.USER_MCP_SERVERS.name(), "test-user-mcp-kept", bytes -> bytes).get(userId),
                UserMcpServers.class);
        assertThat(box.open(keptStored.servers().getFirst().env().get("API_KEY"), userId))
                .isEqualTo("sk-carol-secret");
        assertThat(box.open(keptStored.servers().getFirst().env().get("DEBUG"), userId)).isEqualTo("1");
        // With its arguments changed the server is another destination: the saved value does not go there.
        Client.Response moved = carol.put(ROUTE, Map.of("mcpServers", Map.of("everything", Map.of("command", "npx",
                "args", List.of("-y", "@modelcontextprotocol/server-everything", "--verbose"),
                "env", Map.of("API_KEY", "***")))));
        assertThat(moved.status()).isEqualTo(400);
        assertThat(moved.json().get("message").asText()).isEqualTo("env API_KEY of server everything is \"***\", "
                + "but its command, arguments or url changed: a saved value stays with where it was sent, type it "
                + "again");
        // A "***" for a name that had no value is refused, never saved as three stars.
        Client.Response noValue = carol.put(ROUTE, Map.of("mcpServers", Map.of("everything", Map.of("command", "npx",
                "env", Map.of("OTHER_KEY", "***")))));
        assertThat(noValue.status()).isEqualTo(400);
        assertThat(noValue.json().get("message").asText()).isEqualTo("env OTHER_KEY of server everything is \"***\", "
                + "but no value was saved for it before: type the value itself");

        // A PUT replaces the whole configuration, one version on.
        Client.Response second = carol.put(ROUTE, Map.of("mcpServers", Map.of("only", Map.of("command", "srv"))));
        assertThat(second.status()).as(second.body()).isEqualTo(200);
        JsonNode after = carol.get(ROUTE).json();
        assertThat(after.get("version").asLong()).isEqualTo(3);
        assertThat(after.get("mcpServers").size()).isEqualTo(1);

        // Dave's DELETE removes nothing of Carol's; hers does.
        assertThat(dave.delete(ROUTE).status()).isEqualTo(200);
        assertThat(carol.get(ROUTE).json().get("own").asBoolean()).isTrue();
        Client.Response deleted = carol.delete(ROUTE);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().get("own").asBoolean()).isFalse();
        assertThat(carol.get(ROUTE).json().get("own").asBoolean()).isFalse();
        assertThat(CompactedTopicView.readToEnd(kafka(), Topics.USER_MCP_SERVERS.name(), "test-user-mcp-gone",
                bytes -> bytes)).doesNotContainKey(userId);
    }

    @Test
    void bad_configurations_are_400_with_a_message_naming_the_problem_and_change_nothing() {
        Map<String, Object> many = new LinkedHashMap<>();
        for (int i = 0; i < 21; i++) {
            many.put("s" + i, Map.of("command", "srv"));
        }
        Map<Object, String> cases = new LinkedHashMap<>();
        cases.put("{\"mcpServers\": {\"bad name\": {\"command\": \"x\"}}}", "may only have letters, digits");
        cases.put("{\"mcpServers\": {\"a.b\": {\"command\": \"x\"}}}", "may only have letters, digits");
        cases.put("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"trusted\": true}}}", "trusted");
        cases.put("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"url\": \"https://a.example/mcp\"}}}",
                "exactly one of");
        cases.put("{\"mcpServers\": {\"t\": {}}}", "exactly one of");
        cases.put("{\"mcpServers\": {\"t\": {\"url\": \"ftp://a.example/mcp\"}}}", "plain http:// or https://");
        cases.put("{\"mcpServers\": {\"t\": {\"url\": \"https://u:p@a.example/mcp\"}}}", "no user, query");
        cases.put("{\"mcpServers\": {\"t\": {\"url\": \"https://a.example/mcp?key=sk-in-url\"}}}", "no user, query");
        cases.put("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"env\": {\"K\": 5}}}}", "\"env\" value of 'K'");
        cases.put("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"args\": \"-y\"}}}", "array of strings");
        cases.put("{\"mcpServers\": []}", "must be an object of servers");
        cases.put("{\"servers\": {}}", "needs \"mcpServers\"");
        cases.put("{not json", "not valid JSON");
        cases.put(Map.of("mcpServers", many), "at most 20 MCP servers");
        cases.put("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"args\": [\"" + "a".repeat(70_000) + "\"]}}}",
                "at most 65536 bytes");
        cases.forEach((body, message) -> {
            Client.Response r = carol.put(ROUTE, body);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.message()).as(r.body()).contains(message);
            assertThat(r.body()).doesNotContain("sk-in-url");
        });
        assertThat(carol.get(ROUTE).json().get("own").asBoolean()).isFalse();
    }

    private static KafkaSettings kafka() {
        return broker.kafka();
    }

    private static String carolsId() {
        return carol.get("/api/v1/me").json().get("userId").asText();
    }
}
