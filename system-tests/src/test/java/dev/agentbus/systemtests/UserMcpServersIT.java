package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpServerView;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.testkit.mcp.NpmMcpServers;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own MCP servers end to end on the standalone stack (real broker, PostgreSQL, the five services, the real
 * {@code server-everything} from npm over stdio in bubblewrap), with no team servers at all: Ada configures one
 * through {@code PUT /api/v1/me/mcp-servers}, the scripted model calls {@code mcp__mine__echo} in her session and
 * gets its answer; Bob's session never sees the server; the environment value she gave is sealed on Kafka and
 * appears in no answer, log or model request; and a change of her configuration reaches her live session.
 */
class UserMcpServersIT {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SECRET = "ada-mcp-secret-0815";

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;
    static NpmMcpServers npm;

    @BeforeAll
    static void start() {
        npm = NpmMcpServers.installed();
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.mcp.package-dirs", npm.prefix().toString()));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void a_users_own_server_is_in_their_sessions_only_and_its_secrets_stay_sealed() throws Exception {
        GatewayClient ada = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "ada"));
        GatewayClient bob = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "bob"));
        GatewayClient.Response set = put(ada, Map.of("mcpServers", Map.of("mine", Map.of(
                "command", npm.everything().toString(), "env", Map.of("ADA_TOKEN", SECRET)))));
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        assertThat(set.body()).doesNotContain(SECRET);
        assertThat(TeamsIT.topicBytesOn(stack, Topics.USER_MCP_SERVERS.name())).as("sealed on Kafka").isNotEmpty()
                .noneMatch(v -> v.contains(SECRET));

        // Ada's session: her server is started in it, listed, and called by the model.
        String id = ada.createSession("with my server");
        ada.awaitLog(id, e -> e.event() instanceof McpToolsListed, WAIT);
        JsonNode servers = ada.get("/api/v1/sessions/" + id).json().get("mcpServers");
        assertThat(servers).as(String.valueOf(servers)).hasSize(1);
        assertThat(servers.get(0).get("name").asText()).isEqualTo("mine");
        assertThat(servers.get(0).get("source").asText()).isEqualTo("user");
        assertThat(servers.get(0).get("live").asBoolean()).as(servers.toString()).isTrue();
        model.replyToolCall("mcp__mine__echo", "{\"message\":\"hello from ada's own server\"}")
                .replyText("Echoed.");
        ada.postMessage(id, "echo it");
        ada.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        List<ToolCallCompleted> results = ada.log(id).stream().map(EventEnvelope::event)
                .filter(e -> e instanceof ToolCallCompleted).map(ToolCallCompleted.class::cast).toList();
        assertThat(results).hasSize(1);
        assertThat(results.getFirst().ok()).as(results.getFirst().error()).isTrue();
        assertThat(results.getFirst().output()).contains("hello from ada's own server");
        assertThat(model.lastRequest().get("tools").findValuesAsText("name")).contains("mcp__mine__echo");

        // Bob's session: no such server, no such tool offered, and a call of it by name goes nowhere.
        String bobs = bob.createSession("without it");
        int adasRequests = model.requests().size();
        model.replyToolCall("mcp__mine__echo", "{\"message\":\"from bob\"}").replyText("No server.");
        bob.postMessage(bobs, "try it");
        bob.awaitLog(bobs, e -> e.event() instanceof TurnEnded, WAIT);
        List<EventEnvelope> bobsLog = bob.log(bobs);
        assertThat(bobsLog).noneMatch(e -> e.event() instanceof McpToolsListed);
        assertThat(bobsLog.stream().map(EventEnvelope::event).filter(e -> e instanceof ToolCallCompleted)
                .map(ToolCallCompleted.class::cast)).allMatch(r -> !r.ok() && !String.valueOf(r.output())
                .contains("from bob"));
        JsonNode bobsState = bob.get("/api/v1/sessions/" + bobs).json();
        assertThat(bobsState.path("mcpServers").size()).isZero();
        List<JsonNode> bobsTurn = model.requests().subList(adasRequests, model.requests().size());
        assertThat(bobsTurn).isNotEmpty().allSatisfy(r -> assertThat(r.get("tools").findValuesAsText("name"))
                .noneMatch(n -> n.startsWith("mcp__")));

        // The secret is the worker's alone.
        assertThat(ada.get("/api/v1/sessions/" + id + "/log").body()).doesNotContain(SECRET);
        assertThat(ada.get("/api/v1/sessions/" + id).body()).doesNotContain(SECRET);
        assertThat(ada.get("/api/v1/me/mcp-servers").body()).doesNotContain(SECRET).contains("\"***\"");
        assertThat(model.requests().toString()).doesNotContain(SECRET);

        // A change of her servers reaches her live session: listed again under the new name.
        assertThat(put(ada, Map.of("mcpServers", Map.of("renamed", Map.of(
                "command", npm.everything().toString())))).status()).isEqualTo(200);
        ada.awaitLog(id, e -> e.event() instanceof McpToolsListed l && l.servers().stream()
                .map(McpServerView::name).toList().equals(List.of("renamed")), WAIT);
    }

    private static GatewayClient.Response put(GatewayClient user, Object body) throws Exception {
        return user.send(user.request("/api/v1/me/mcp-servers").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body))).build());
    }
}
