package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpServerView;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outgoing-request policy against the attacks of a hostile teammate (issue 28): a user who points their own model
 * server, MCP server or webhook at the gateway itself, at Kafka, at a cloud metadata address or at an internal
 * service. The stack's operator opened one internal server ({@code agentbus.outgoing.allow}: the "model server on
 * the LAN"); a second internal server, not opened, stands for everything else inside. Both answer every request
 * with an error whose body carries a marker that must never reach a session, a listing or an API answer.
 */
class OutgoingRequestsIT {
    static final String MARKER = "INTERNAL-SECRET-7f3a9c";
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;
    /** Opened by the operator's allow-list, as a team's LAN model server would be. */
    static Internal allowed;
    /** Not opened: an internal service a user must not reach. */
    static Internal internal;

    @BeforeAll
    static void start() throws IOException {
        allowed = Internal.start();
        internal = Internal.start();
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of(
                "agentbus.outgoing.allow", "127.0.0.1:" + allowed.port()));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
        if (allowed != null) {
            allowed.server.stop(0);
        }
        if (internal != null) {
            internal.server.stop(0);
        }
    }

    @Test
    void the_gateway_as_a_users_own_model_server_is_refused_and_one_message_makes_one_session() throws Exception {
        String key = TeamsIT.newUserKey(stack, "selfie");
        GatewayClient eve = new GatewayClient(stack.stack.gatewayUrl(), key);
        String gateway = stack.stack.gatewayUrl().replaceAll("/$", "");
        for (String root : List.of(gateway + "/v1", gateway + "/api/v1",
                gateway.replace("localhost", "127.0.0.1") + "/v1")) {
            GatewayClient.Response set = putModel(eve, Map.of("baseUrl", root, "apiKey", key));
            assertThat(set.status()).as(root + ": " + set.body()).isEqualTo(400);
            assertThat(set.json().get("message").asText()).as(root).contains("own gateway");
        }
        assertThat(eve.get("/api/v1/me/model").json().get("own").asBoolean()).isFalse();

        model.replyText("from the team's server");
        String id = eve.createSession("one message");
        eve.postMessage(id, "hello");
        eve.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        GatewayClient.Response models = eve.get("/api/v1/models");
        assertThat(models.status()).as("the team's list, bounded").isEqualTo(200);

        // A request that comes back to the gateway by a route the policy cannot see (a proxy, a DNS name) carries
        // the hop marker, and is refused at the door before it can start anything.
        GatewayClient.Response looped = eve.send(eve.request("/v1/chat/completions")
                .header("Content-Type", "application/json").header("Agentbus-Hop", "agentbus")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"hi\"}]}")).build());
        assertThat(looped.status()).isEqualTo(508);
        assertThat(looped.json().get("message").asText()).contains("Agentbus-Hop");
        assertThat(eve.send(eve.request("/api/v1/models").header("Agentbus-Hop", "agentbus").GET().build())
                .status()).isEqualTo(508);
        assertThat(eve.get("/api/v1/sessions").json()).as("exactly the one session").hasSize(1);
    }

    @Test
    void a_users_model_server_on_an_internal_address_is_refused() throws Exception {
        GatewayClient mallory = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "mallory"));
        String kafka = stack.stack.bootstrapServers().split(",")[0];
        for (String url : List.of("http://" + kafka + "/v1", "http://169.254.169.254/latest/meta-data",
                "http://127.0.0.1:" + internal.port() + "/v1", "http://[::1]:" + internal.port() + "/v1",
                "http://10.0.0.1:1234/v1", "http://0.0.0.0:" + internal.port() + "/v1")) {
            GatewayClient.Response set = putModel(mallory, Map.of("baseUrl", url));
            assertThat(set.status()).as(url + ": " + set.body()).isEqualTo(400);
            assertThat(set.json().get("message").asText()).as(url).contains("internal address")
                    .contains("agentbus.outgoing.allow");
        }
        assertThat(internal.requests.get()).as("nothing reached the internal server").isZero();
    }

    @Test
    void an_allowed_servers_error_body_never_reaches_the_session() throws Exception {
        GatewayClient trent = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "trent"));
        GatewayClient.Response set = putModel(trent, Map.of("baseUrl", "http://127.0.0.1:" + allowed.port() + "/v1",
                "model", "lan-model"));
        assertThat(set.status()).as(set.body()).isEqualTo(200);

        String id = trent.createSession("lan model");
        trent.postMessage(id, "hello");
        List<EventEnvelope> log = trent.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(allowed.requests.get()).as("the allowed server was asked").isPositive();
        assertThat(log).anySatisfy(e -> assertThat(e.event()).isInstanceOfSatisfying(ModelCallFailed.class,
                f -> assertThat(f.message()).contains("HTTP 500 (internal server error)")));
        assertThat(trent.get("/api/v1/sessions/" + id + "/log").body()).doesNotContain(MARKER);
        assertThat(trent.get("/api/v1/sessions/" + id).body()).doesNotContain(MARKER);
        GatewayClient.Response listed = trent.get("/api/v1/models");
        assertThat(listed.status()).isEqualTo(502);
        assertThat(listed.body()).contains("HTTP 500").doesNotContain(MARKER);
    }

    @Test
    void a_users_mcp_server_on_an_internal_address_is_refused_and_shows_nothing_of_it() throws Exception {
        GatewayClient oscar = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "oscar"));
        int before = internal.requests.get();
        GatewayClient.Response set = oscar.send(oscar.request("/api/v1/me/mcp-servers")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(Map.of("mcpServers",
                        Map.of("probe", Map.of("url", "http://127.0.0.1:" + internal.port() + "/mcp"),
                                "lan", Map.of("url", "http://127.0.0.1:" + allowed.port() + "/mcp"))))))
                .build());
        assertThat(set.status()).as(set.body()).isEqualTo(200);

        String id = oscar.createSession("mcp probe");
        List<EventEnvelope> log = oscar.awaitLog(id, e -> e.event() instanceof McpToolsListed l
                && l.servers().stream().map(McpServerView::name).toList().containsAll(List.of("probe", "lan")), WAIT);
        McpToolsListed listed = (McpToolsListed) log.stream().filter(e -> e.event() instanceof McpToolsListed)
                .reduce((a, b) -> b).orElseThrow().event();
        McpServerView probe = listed.servers().stream().filter(s -> s.name().equals("probe")).findFirst()
                .orElseThrow();
        assertThat(probe.live()).isFalse();
        assertThat(probe.error()).contains("internal address");
        McpServerView lan = listed.servers().stream().filter(s -> s.name().equals("lan")).findFirst().orElseThrow();
        assertThat(lan.live()).isFalse();
        assertThat(lan.error()).contains("HTTP 500").doesNotContain(MARKER);

        assertThat(internal.requests.get()).as("nothing reached the internal server").isEqualTo(before);
        assertThat(oscar.get("/api/v1/sessions/" + id).body()).doesNotContain(MARKER);
        assertThat(oscar.get("/api/v1/sessions/" + id + "/log").body()).doesNotContain(MARKER);
    }

    @Test
    void a_webhook_on_an_internal_address_is_refused_and_reports_no_status() throws Exception {
        GatewayClient wendy = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "wendy"));
        int before = internal.requests.get();
        for (String url : List.of("http://127.0.0.1:" + internal.port() + "/hook",
                "http://169.254.169.254/latest/meta-data/", "http://" + URI.create(stack.stack.gatewayUrl())
                        .getAuthority() + "/api/v1/admin/users")) {
            GatewayClient.Response r = wendy.send(wendy.request("/api/v1/me/notification-settings")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(
                            Map.of("webhookUrl", url, "on", List.of("turn_ended"))))).build());
            assertThat(r.status()).as(url + ": " + r.body()).isEqualTo(400);
            assertThat(r.json().get("message").asText()).as(url).contains("webhookUrl is refused");
        }
        JsonNode settings = wendy.get("/api/v1/me/notification-settings").json();
        assertThat(settings.path("webhookUrl").isNull() || settings.path("webhookUrl").isMissingNode()).isTrue();
        assertThat(settings.path("webhookError").isNull() || settings.path("webhookError").isMissingNode())
                .as("no status reported").isTrue();
        assertThat(internal.requests.get()).as("nothing reached the internal server").isEqualTo(before);
    }

    private static GatewayClient.Response putModel(GatewayClient user, Map<String, ?> body) throws Exception {
        return user.send(user.request("/api/v1/me/model").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body))).build());
    }

    /** An internal HTTP service: every request is answered 500 with an error body that carries the marker. */
    record Internal(HttpServer server, AtomicInteger requests) {
        static Internal start() throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            AtomicInteger requests = new AtomicInteger();
            server.createContext("/", exchange -> {
                requests.incrementAndGet();
                exchange.getRequestBody().readAllBytes();
                byte[] body = ("{\"error\":{\"message\":\"" + MARKER + ": db password is hunter2\"}}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(500, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return new Internal(server, requests);
        }

        int port() {
            return server.getAddress().getPort();
        }
    }
}
