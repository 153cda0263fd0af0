package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.session.Urgency;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.websocket.SocketClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Notifications end to end on the standalone stack (real broker, real PostgreSQL) with the scripted model server and
 * a real HTTP server as the user's webhook: a turn that ends reaches the user's queue, their live stream, their
 * WebSocket and their webhook; the agent's send_notification reaches the queue; read marks work; a webhook that fails is retried, given up and shown in the settings, and nothing else
 * suffers; bad settings are 400s.
 */
class NotificationsIT {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;
    static HttpServer hooks;
    static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    static final AtomicInteger failing = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        hooks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hooks.createContext("/hook", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hooks.createContext("/broken", exchange -> {
            failing.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        hooks.start();
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of(
                "agentbus.notifications.webhook-attempts", "2",
                "agentbus.notifications.webhook-backoff", "200ms",
                // The test's webhook receiver runs on this host's loopback: the operator opens it.
                "agentbus.outgoing.allow", "127.0.0.1"));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
        if (hooks != null) {
            hooks.stop(0);
        }
    }

    @Test
    void a_turn_that_ends_reaches_the_users_queue_live_stream_and_webhook_and_can_be_marked_read() throws Exception {
        GatewayClient gw = stack.gateway;
        JsonNode settings = put(gw, "{\"webhookUrl\":\"" + hook("/hook") + "\",\"on\":[\"turn_ended\",\"message\"]}");
        assertThat(settings.get("webhookUrl").asText()).isEqualTo(hook("/hook"));
        assertThat(settings.get("on")).extracting(JsonNode::asText).containsExactlyInAnyOrder("turn_ended", "message");
        model.replyText("The report is ready.");
        String id = gw.createSession("Report");
        CompletableFuture<List<GatewayClient.Sse>> live = CompletableFuture.supplyAsync(() -> {
            try {
                return gw.sseAt("/api/v1/me/notifications/stream", null,
                        e -> "notification".equals(e.event()) && e.data().contains(id), WAIT);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        SocketClient socket = SocketClient.withToken(stack.stack.gatewayUrl(), "session=" + id,
                StandaloneStack.TOKEN);
        socket.ready();

        gw.postMessage(id, "write the report");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        Poll.until("the turn's notification in the queue", WAIT, () -> mine(gw, id).size() == 1);
        JsonNode list = gw.get("/api/v1/me/notifications").json();
        JsonNode n = mine(gw, id).getFirst();
        assertThat(n.get("kind").asText()).isEqualTo("turn_ended");
        assertThat(n.get("title").asText()).isEqualTo("Turn completed in “Report”");
        assertThat(n.get("body").asText()).isEqualTo("The report is ready.");
        assertThat(n.get("read").asBoolean()).isFalse();
        assertThat(list.get("unread").asLong()).isGreaterThanOrEqualTo(1);

        JsonNode hooked = nextHookFor(id, WAIT);
        assertThat(hooked).as("the webhook got it").isNotNull();
        assertThat(hooked.get("kind").asText()).isEqualTo("turn_ended");
        assertThat(hooked.get("id").asLong()).isEqualTo(n.get("id").asLong());
        Poll.until("the delivery shown in the settings", WAIT,
                () -> gw.get("/api/v1/me/notification-settings").json().has("webhookOkAt"));

        List<GatewayClient.Sse> events = live.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(events.getLast().id()).isEqualTo(n.get("id").asText());
        try (socket) {
            JsonNode frame = socket.until(m -> m.path("type").asText().equals("user_notification")
                    && m.path("notification").path("sessionId").asText().equals(id)).getLast();
            assertThat(frame.path("notification").path("id").asLong()).isEqualTo(n.get("id").asLong());
            assertThat(frame.path("notification").path("kind").asText()).isEqualTo("turn_ended");
        }

        GatewayClient.Response read = gw.post("/api/v1/me/notifications/read", "{\"upTo\":" + n.get("id") + "}");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("unread").asLong()).isZero();
        assertThat(mine(gw, id).getFirst().get("read").asBoolean()).isTrue();
        assertThat(nextHookFor(id, Duration.ofMillis(500))).as("delivered once").isNull();
    }

    @Test
    void the_agents_send_notification_reaches_the_users_queue_as_a_message_and_the_turn_goes_on() throws Exception {
        GatewayClient gw = stack.gateway;
        put(gw, "{\"webhookUrl\":null,\"on\":[\"message\"]}");
        model.replyToolCall("send_notification", "{\"message\":\"The migration finished.\",\"urgency\":\"high\"}")
                .replyText("Done, and I told you.");
        String id = gw.createSession("Migration");

        gw.postMessage(id, "migrate, and tell me when it is done");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        Poll.until("the agent's notification in the queue", WAIT, () -> mine(gw, id).size() == 1);
        JsonNode n = mine(gw, id).getFirst();
        assertThat(n.get("kind").asText()).isEqualTo("message");
        assertThat(n.get("title").asText()).isEqualTo("Urgent: notification from the agent in “Migration”");
        assertThat(n.get("body").asText()).isEqualTo("The migration finished.");
        assertThat(n.get("read").asBoolean()).isFalse();
        List<SessionEvent> log = gw.log(id).stream().map(EventEnvelope::event).toList();
        ToolCallCompleted result = log.stream().filter(e -> e instanceof ToolCallCompleted)
                .map(ToolCallCompleted.class::cast).findFirst().orElseThrow();
        assertThat(result.ok()).as("the call's result is recorded").isTrue();
        assertThat(log).as("by the agent, for its call").contains(
                new NotificationPosted("The migration finished.", null, Urgency.HIGH, result.callId()));
        assertThat(log.getLast()).isEqualTo(new TurnEnded(TurnOutcome.COMPLETED, "Done, and I told you.", null));

        GatewayClient.Response read = gw.post("/api/v1/me/notifications/read", "{\"upTo\":" + n.get("id") + "}");
        assertThat(read.status()).isEqualTo(200);
        assertThat(mine(gw, id).getFirst().get("read").asBoolean()).isTrue();
    }

    @Test
    void a_failing_webhook_is_retried_given_up_and_shown_and_the_sessions_go_on() throws Exception {
        GatewayClient gw = stack.gateway;
        put(gw, "{\"webhookUrl\":\"" + hook("/broken") + "\",\"on\":[\"turn_ended\"]}");
        model.replyText("First.").replyText("Second.");
        String id = gw.createSession("Broken hook");

        gw.postMessage(id, "one");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        Poll.until("the failure in the settings", WAIT, () -> gw.get("/api/v1/me/notification-settings").json()
                .path("webhookError").asText().contains("HTTP 500"));
        Poll.until("two attempts", WAIT, () -> failing.get() >= 2);

        gw.postMessage(id, "two");
        Poll.until("the second turn's notification queued all the same", WAIT, () -> mine(gw, id).size() == 2);
        put(gw, "{\"webhookUrl\":null}");
    }

    @Test
    void bad_settings_and_read_marks_are_400_json_errors() {
        GatewayClient gw = stack.gateway;
        Map<String, String> cases = Map.of(
                "{\"webhookUrl\":\"ftp://files.example.com/drop\"}", "http or https",
                "{\"webhookUrl\":\"file:///etc/passwd\"}", "http or https",
                "{\"webhookUrl\":\"http://\"}", "webhookUrl",
                "{\"on\":[\"turn_ended\",\"everything\"]}", "unknown kind 'everything'");
        for (var c : cases.entrySet()) {
            GatewayClient.Response r = gw.send(gw.request("/api/v1/me/notification-settings")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(c.getKey())).build());
            assertThat(r.status()).as(c.getKey()).isEqualTo(400);
            assertThat(r.json().get("message").asText()).as(c.getKey()).contains(c.getValue());
        }
        for (String body : List.of("{}", "{\"upTo\":0}", "{\"upTo\":\"soon\"}")) {
            assertThat(gw.post("/api/v1/me/notifications/read", body).status()).as(body).isEqualTo(400);
        }
    }

    /**
     * The next POST the webhook received for this session, or null after the time-out. Others are skipped: a
     * notification another test queued for its own webhook goes to the URL the user has when it is delivered.
     */
    private static JsonNode nextHookFor(String sessionId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String posted = left <= 0 ? null : received.poll(left, TimeUnit.NANOSECONDS);
            if (posted == null) {
                return null;
            }
            JsonNode hooked = Json.mapper().readTree(posted);
            if (hooked.path("sessionId").asText().equals(sessionId)) {
                return hooked;
            }
        }
    }

    private static String hook(String path) {
        return "http://127.0.0.1:" + hooks.getAddress().getPort() + path;
    }

    private static JsonNode put(GatewayClient gw, String json) {
        GatewayClient.Response r = gw.send(gw.request("/api/v1/me/notification-settings")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static List<JsonNode> mine(GatewayClient gw, String sessionId) {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (JsonNode n : gw.get("/api/v1/me/notifications?limit=200").json().get("items")) {
            if (n.get("sessionId").asText().equals(sessionId)) {
                out.add(n);
            }
        }
        return out;
    }

}
