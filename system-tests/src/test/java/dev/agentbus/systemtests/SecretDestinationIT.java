package dev.agentbus.systemtests;

import com.sun.net.httpserver.HttpServer;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sealed secrets stay with their destination (issue 28, failure 7), on the standalone stack: someone who may change
 * a person's settings (the person, or whoever holds their API key for a while) points a saved model server or MCP
 * server at an address of their own and leaves the secret as it was saved. The saved secret never arrives there;
 * the change is refused with a message that asks for the secret again.
 */
class SecretDestinationIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String MODEL_KEY = "sk-erin-model-key-4711";
    static final String MCP_TOKEN = "erin-mcp-token-0815";

    @Test
    void a_saved_model_key_is_never_sent_to_a_new_base_url() throws Exception {
        GatewayClient erin = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("erin"));
        try (ScriptedModelServer own = ScriptedModelServer.start("erins-model");
             ScriptedModelServer attackers = ScriptedModelServer.start("erins-model")) {
            own.replyText("from erin's server");
            attackers.replyText("from the attacker's server");
            assertThat(putModel(erin, Map.of("baseUrl", own.baseUrl(), "model", "erins-model",
                    "apiKey", MODEL_KEY)).status()).isEqualTo(200);

            // The key is left out, as the API lets one keep it: only the address changes.
            GatewayClient.Response redirected = putModel(erin, Map.of("baseUrl", attackers.baseUrl(),
                    "model", "erins-model"));
            String id = erin.createSession("after the change");
            erin.postMessage(id, "hello");
            erin.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

            assertThat(attackers.authorizations()).as("the saved key at the new address")
                    .doesNotContain("Bearer " + MODEL_KEY);
            assertThat(redirected.status()).as(redirected.body()).isEqualTo(400);
            assertThat(redirected.json().get("message").asText()).contains("apiKey").contains("baseUrl");
            assertThat(own.authorizations()).as("the key still serves the server it was given for")
                    .contains("Bearer " + MODEL_KEY);

            // Given again, on purpose, it goes where it is told.
            assertThat(putModel(erin, Map.of("baseUrl", attackers.baseUrl(), "model", "erins-model",
                    "apiKey", "sk-for-the-new-server")).status()).isEqualTo(200);
            erin.postMessage(id, "and now?");
            assertThat(erin.awaitLog(id, e -> e.event() instanceof TurnEnded t
                    && "from the attacker's server".equals(t.answer()), WAIT)).isNotEmpty();
            assertThat(attackers.authorizations()).contains("Bearer sk-for-the-new-server")
                    .doesNotContain("Bearer " + MODEL_KEY);
        }
    }

    @Test
    void a_saved_mcp_header_sent_back_as_stars_is_never_sent_to_a_new_url() throws Exception {
        GatewayClient fay = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("fay"));
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer recorder = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        recorder.createContext("/", exchange -> {
            received.add(exchange.getRequestURI().getPath() + " " + exchange.getRequestHeaders());
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        recorder.start();
        try {
            String base = "http://127.0.0.1:" + recorder.getAddress().getPort();
            assertThat(putMcp(fay, Map.of("mcpServers", Map.of("tools", Map.of("url", base + "/hers",
                    "headers", Map.of("Authorization", "Bearer " + MCP_TOKEN))))).status()).isEqualTo(200);

            GatewayClient.Response redirected = putMcp(fay, Map.of("mcpServers", Map.of("tools", Map.of(
                    "url", base + "/attackers", "headers", Map.of("Authorization", "***")))));
            String id = fay.createSession("after the change");
            fay.awaitLog(id, e -> e.event() instanceof McpToolsListed, WAIT);
            Poll.until("the worker to reach the configured server", WAIT, () -> !received.isEmpty());

            assertThat(received).as("the saved header at the new url")
                    .noneMatch(r -> r.startsWith("/attackers") && r.contains(MCP_TOKEN));
            assertThat(redirected.status()).as(redirected.body()).isEqualTo(400);
            assertThat(redirected.json().get("message").asText()).contains("Authorization").contains("url");
            assertThat(received).as("the header still goes to the server it was given for")
                    .anyMatch(r -> r.startsWith("/hers") && r.contains(MCP_TOKEN));
        } finally {
            recorder.stop(0);
        }
    }

    private static GatewayClient.Response putModel(GatewayClient user, Object body) throws Exception {
        return put(user, "/api/v1/me/model", body);
    }

    private static GatewayClient.Response putMcp(GatewayClient user, Object body) throws Exception {
        return put(user, "/api/v1/me/mcp-servers", body);
    }

    private static GatewayClient.Response put(GatewayClient user, String path, Object body) throws Exception {
        return user.send(user.request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body))).build());
    }
}
