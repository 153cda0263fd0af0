package dev.agentbus.gateway.accounts;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import io.micronaut.web.router.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-user isolation over every route of the gateway. Alice has a session, an API key, a login and token usage;
 * Bob, an ordinary user with his own key, tries every route on them. Whatever is Alice's answers 404, exactly as
 * for something that does not exist; admin routes answer 403; routes about the caller answer about Bob only. The
 * route list comes from the gateway's own router, so a new route that this test does not know fails it.
 */
class IsolationIT {
    static final String MARKER = "alice-private-marker";
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    static String url;
    static String aliceSession;
    static String aliceInboxId;
    /** Alice's second session, whose turn waits for her approval of call c2. */
    static String aliceAwaiting;
    static String aliceKeyId;
    static String aliceKey;
    static String aliceLoginId;
    static Client alice;
    static Client bob;
    static dev.agentbus.testkit.model.ScriptedModelServer modelServer;

    /** How Bob's request to a route should be answered. */
    enum Expect {
        /** Alice's data: 404, the same as for an id that does not exist. */
        NOT_FOUND,
        /** Admins only: 403. */
        ADMIN_ONLY,
        /** About the caller: any answer, as long as nothing of Alice's is in it. */
        CALLERS_OWN,
        /** Needs no login (how one gets one): nothing of Alice's in the answer. */
        OPEN,
        /**
         * Alice's data through a protocol whose refusals are not HTTP statuses (MCP's JSON-RPC errors): the very
         * answer, status and body, as for ids of nothing.
         */
        SAME_AS_MISSING
    }

    /** A request for a route, {@code {id}} and the like already filled in with Alice's ids. */
    record Probe(Expect expect, String method, String path, Object body, Map<String, String> headers) {
        static Probe of(Expect expect, String method, String path, Object body) {
            return new Probe(expect, method, path, body, Map.of());
        }
    }

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        // A model server, so GET /api/v1/models has one to list (without it the route answers 502, as it should), and
        // so messages are embedded: search probes its hybrid mode, full-text and semantic lists at once.
        modelServer = dev.agentbus.testkit.model.ScriptedModelServer.start();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), TestPostgres.newDatabase(),
                Map.of("agentbus.admin-password", AccountsIT.ADMIN_PASSWORD, "llm.url", modelServer.baseUrl(),
                        "agentbus.search.embedding-model", "hashed",
                        // the probes' own model and MCP servers are on loopback: the operator opens it
                        "agentbus.outgoing.allow", "127.0.0.1"));
        url = gateway.url();
        AccountsIT.url = url;
        alice = newUser("alice");
        bob = Client.withKey(url, newUser("bob").post("/api/v1/me/api-keys", Map.of("name", "bob's key",
                "currentPassword", "bob-password-123")).json().get("key").asText());
        var created = alice.post("/api/v1/me/api-keys", Map.of("name", MARKER,
                "currentPassword", "alice-password-123")).json();
        aliceKeyId = created.get("id").asText();
        aliceKey = created.get("key").asText();
        aliceLoginId = alice.get("/api/v1/me/logins").json().get(0).get("loginId").asText();
        // Her own MCP servers, secrets and all: no answer to Bob may show them.
        assertThat(alice.put("/api/v1/me/mcp-servers", Map.of("mcpServers", Map.of(MARKER, Map.of(
                "command", "/opt/" + MARKER, "env", Map.of("TOKEN", MARKER + "-token"))))).status()).isEqualTo(200);
        aliceInboxId = alice.post("/api/v1/inbox", Map.of("text", MARKER + " task", "at",
                Instant.now().plus(Duration.ofDays(1)).toString())).json().get("id").asText();

        aliceSession = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(aliceSession, "alice", new SessionEvent.SessionCreated(MARKER + " title"));
            log.append(aliceSession, "alice", new SessionEvent.UserMessagePosted(MARKER + " in a message"));
            log.append(aliceSession, "alice", new SessionEvent.ModelCallCompleted("r1", "qwen-7b", null, null,
                    List.of(new ToolCallSpec("c1", "shell", "{\"command\":\"echo " + MARKER + "\"}")),
                    new TokenUsage(4000, 242, 4242), "tool_calls"));
            log.append(aliceSession, "alice", new SessionEvent.ToolCallRequested("c1", "shell",
                    "{\"command\":\"echo " + MARKER + "\"}"));
            log.append(aliceSession, "alice", new SessionEvent.ToolCallCompleted("c1", true, MARKER, null, null,
                    false, 3, false));
            // Dated now, so it notifies Alice (older events notify nobody): the notification routes' probes then
            // have something of hers to leak.
            log.appendAt(aliceSession, "alice", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, MARKER, null),
                    Instant.now());
        }
        aliceAwaiting = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(aliceAwaiting, "alice", new SessionEvent.SessionCreated(MARKER + " careful",
                    PermissionMode.NORMAL));
            log.append(aliceAwaiting, "alice", new SessionEvent.UserMessagePosted(MARKER + " clean up"));
            log.append(aliceAwaiting, "alice", new SessionEvent.ModelCallStarted("r1", 1));
            log.append(aliceAwaiting, "alice", new SessionEvent.ModelCallCompleted("r1", "qwen-7b", null, null,
                    List.of(new ToolCallSpec("c2", "shell", "{\"command\":\"rm -rf build\"}")), TokenUsage.ZERO,
                    "tool_calls"));
            log.append(aliceAwaiting, "alice", new SessionEvent.ApprovalRequested("c2", "shell",
                    "{\"command\":\"rm -rf build\"}", Risk.HIGH, MARKER, Instant.now().plusSeconds(3600)));
        }
        Await.until("alice's notification of her turn", WAIT, () -> alice.get("/api/v1/me/notifications").body()
                .contains(aliceSession));
        Await.until("alice's approval in the view", WAIT, () -> alice.get("/api/v1/sessions/" + aliceAwaiting)
                .body().contains("AWAITING_APPROVAL"));
        // Alice sees her session everywhere first, so Bob's empty answers below are not just "not there yet".
        Await.until("alice's session in the view", WAIT, () -> alice.get("/api/v1/sessions/" + aliceSession)
                .status() == 200);
        Await.until("alice's session in the read models", WAIT, () -> alice.get("/api/v1/read-models/sessions")
                .body().contains(aliceSession) && alice.get("/api/v1/audit").body().contains(MARKER)
                && alice.get("/api/v1/search?q=alice").body().contains(aliceSession)
                && alice.get("/api/v1/search?q=alice+private+marker&mode=semantic").body().contains(aliceSession));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (modelServer != null) {
            modelServer.close();
        }
        broker.close();
    }

    static Client newUser(String username) {
        Client admin = Client.browser(url);
        admin.login("admin", AccountsIT.ADMIN_PASSWORD, null);
        String code = admin.post("/api/v1/admin/invites", Map.of()).json().get("code").asText();
        Client.browser(url).post("/api/v1/auth/register", Map.of("invite", code, "username", username,
                "password", username + "-password-123"));
        Client user = Client.browser(url);
        assertThat(user.login(username, username + "-password-123", null).status()).isEqualTo(200);
        return user;
    }

    /** Every route of the gateway, as "METHOD template", with Bob's probe of it. */
    static Map<String, Probe> probes() {
        String s = "/api/v1/sessions/" + aliceSession;
        Map<String, Probe> p = new LinkedHashMap<>();
        // Alice's session, in every way it can be reached.
        p.put("GET /api/v1/sessions/{id}", Probe.of(Expect.NOT_FOUND, "GET", s, null));
        p.put("POST /api/v1/sessions/{id}/messages", Probe.of(Expect.NOT_FOUND, "POST", s + "/messages",
                Map.of("text", "hi")));
        p.put("POST /api/v1/sessions/{id}/cancel", Probe.of(Expect.NOT_FOUND, "POST", s + "/cancel", null));
        p.put("DELETE /api/v1/sessions/{id}", Probe.of(Expect.NOT_FOUND, "DELETE", s, null));
        p.put("GET /api/v1/sessions/{id}/planning", Probe.of(Expect.NOT_FOUND, "GET", s + "/planning", null));
        p.put("POST /api/v1/sessions/{id}/plan/decision", Probe.of(Expect.NOT_FOUND, "POST", s + "/plan/decision",
                Map.of("decision", "approve")));
        p.put("POST /api/v1/sessions/{id}/compact", Probe.of(Expect.NOT_FOUND, "POST", s + "/compact", null));
        p.put("PUT /api/v1/sessions/{id}/system-prompt", Probe.of(Expect.NOT_FOUND, "PUT", s + "/system-prompt",
                Map.of("preset", "code")));
        // Alice's inbox task, waiting for its time.
        p.put("DELETE /api/v1/inbox/{id}", Probe.of(Expect.NOT_FOUND, "DELETE", "/api/v1/inbox/" + aliceInboxId,
                null));
        p.put("PUT /api/v1/sessions/{id}/mode", Probe.of(Expect.NOT_FOUND, "PUT", s + "/mode",
                Map.of("mode", "auto")));
        // A call that really awaits Alice's decision; a bad body is 404 too (access is checked first).
        p.put("POST /api/v1/sessions/{id}/approvals/{callId}", Probe.of(Expect.NOT_FOUND, "POST",
                "/api/v1/sessions/" + aliceAwaiting + "/approvals/c2", Map.of("decision", "approve")));
        p.put("PUT /api/v1/sessions/{id}/title", Probe.of(Expect.NOT_FOUND, "PUT", s + "/title",
                Map.of("title", "Bob was here")));
        p.put("PUT /api/v1/sessions/{id}/model", Probe.of(Expect.NOT_FOUND, "PUT", s + "/model",
                Map.of("model", "bobs-model")));
        // A turn that is really under way, so a whisper would be taken; a bad body is 404 too.
        p.put("POST /api/v1/sessions/{id}/whisper", Probe.of(Expect.NOT_FOUND, "POST",
                "/api/v1/sessions/" + aliceAwaiting + "/whisper", Map.of("text", "psst")));
        p.put("POST /api/v1/sessions/{id}/feedback", Probe.of(Expect.NOT_FOUND, "POST", s + "/feedback",
                Map.of("seq", 3, "vote", "up")));
        p.put("GET /api/v1/sessions/{id}/log", Probe.of(Expect.NOT_FOUND, "GET", s + "/log", null));
        p.put("GET /api/v1/sessions/{id}/events", Probe.of(Expect.NOT_FOUND, "GET", s + "/events", null));
        p.put("GET /api/v1/sessions/{id}/export", Probe.of(Expect.NOT_FOUND, "GET", s + "/export", null));
        p.put("PUT /api/v1/sessions/{id}/label", Probe.of(Expect.NOT_FOUND, "PUT", s + "/label",
                Map.of("pinned", true)));
        p.put("GET /api/v1/me/session-labels", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/session-labels",
                null));
        p.put("GET /api/v1/sessions/{id}/export.md", Probe.of(Expect.NOT_FOUND, "GET", s + "/export.md", null));
        p.put("POST /api/v1/sessions/{id}/share-links", Probe.of(Expect.NOT_FOUND, "POST", s + "/share-links",
                null));
        p.put("GET /api/v1/sessions/{id}/share-links", Probe.of(Expect.NOT_FOUND, "GET", s + "/share-links",
                null));
        p.put("DELETE /api/v1/sessions/{id}/share-links/{linkId}", Probe.of(Expect.NOT_FOUND, "DELETE",
                s + "/share-links/" + UUID.randomUUID(), null));
        // A share link's token is its credential: a guessed one is 404 for anyone (ShareIT covers a real one).
        p.put("GET /api/v1/shared/{token}", Probe.of(Expect.NOT_FOUND, "GET", "/api/v1/shared/sh_guessed", null));
        p.put("POST /api/v1/sessions/{id}/fork", Probe.of(Expect.NOT_FOUND, "POST", s + "/fork",
                Map.of("atSeq", 2)));
        p.put("POST /api/v1/sessions/{id}/rewind", Probe.of(Expect.NOT_FOUND, "POST", s + "/rewind",
                Map.of("checkpoint", "abc123")));
        p.put("GET /api/v1/sessions/{id}/files/{+path}", Probe.of(Expect.NOT_FOUND, "GET", s + "/files/a.txt",
                null));
        p.put("PUT /api/v1/sessions/{id}/files/{+path}", Probe.of(Expect.NOT_FOUND, "PUT", s + "/files/a.txt",
                "\"x\""));
        p.put("GET /api/v1/sessions/{id}/workspace/list", Probe.of(Expect.NOT_FOUND, "GET",
                s + "/workspace/list?path=.", null));
        p.put("GET /api/v1/sessions/{id}/workspace/file", Probe.of(Expect.NOT_FOUND, "GET",
                s + "/workspace/file?path=a.txt", null));
        p.put("PUT /api/v1/sessions/{id}/workspace/file", Probe.of(Expect.NOT_FOUND, "PUT",
                s + "/workspace/file?path=a.txt", Map.of("content", "x")));
        p.put("DELETE /api/v1/sessions/{id}/workspace/file", Probe.of(Expect.NOT_FOUND, "DELETE",
                s + "/workspace/file?path=a.txt", null));
        p.put("POST /api/v1/sessions/{id}/workspace/commands", Probe.of(Expect.NOT_FOUND, "POST",
                s + "/workspace/commands", Map.of("command", "echo hi")));
        p.put("GET /api/v1/sessions/{id}/shares", Probe.of(Expect.NOT_FOUND, "GET", s + "/shares", null));
        p.put("PUT /api/v1/sessions/{id}/shares/{groupId}", Probe.of(Expect.NOT_FOUND, "PUT", s + "/shares/team",
                Map.of("mode", "write")));
        p.put("DELETE /api/v1/sessions/{id}/shares/{groupId}", Probe.of(Expect.NOT_FOUND, "DELETE",
                s + "/shares/team", null));
        p.put("POST /v1/chat/completions", new Probe(Expect.NOT_FOUND, "POST", "/v1/chat/completions",
                Map.of("model", "agentbus", "messages", List.of(Map.of("role", "user", "content", "hi"))),
                Map.of("X-Agentbus-Session", aliceSession)));
        // The MCP server: Bob's tool call on Alice's session is the JSON-RPC error for a missing one (every tool:
        // bob_gets_nothing_of_alices_through_the_mcp_tools); the GET of a stream is 405 for anyone.
        p.put("POST /mcp", Probe.of(Expect.SAME_AS_MISSING, "POST", "/mcp", mcpCall("read_file",
                Map.of("session_id", aliceSession, "path", "a.txt"))));
        p.put("GET /mcp", Probe.of(Expect.CALLERS_OWN, "GET", "/mcp", null));
        // Alice's credentials.
        p.put("DELETE /api/v1/me/api-keys/{id}", Probe.of(Expect.NOT_FOUND, "DELETE",
                "/api/v1/me/api-keys/" + aliceKeyId, null));
        // An API key cannot end logins at all (issue 28): 403 whatever the id, so nothing about hers either.
        p.put("DELETE /api/v1/me/logins/{loginId}", Probe.of(Expect.ADMIN_ONLY, "DELETE",
                "/api/v1/me/logins/" + aliceLoginId, null));
        // Lists and queries: Bob's own rows only.
        p.put("GET /api/v1/sessions", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/sessions", null));
        p.put("POST /api/v1/sessions", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/sessions",
                Map.of("title", "bob's")));
        p.put("POST /api/v1/sessions/import", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/sessions/import",
                "not a log"));
        p.put("GET /api/v1/read-models/sessions", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/read-models/sessions",
                null));
        p.put("GET /api/v1/search", Probe.of(Expect.CALLERS_OWN, "GET",
                "/api/v1/search?q=alice+private+marker&mode=hybrid", null));
        p.put("GET /api/v1/analytics/tokens", Probe.of(Expect.CALLERS_OWN, "GET",
                "/api/v1/analytics/tokens?from=2020-01-01&to=2099-12-31", null));
        p.put("GET /api/v1/audit", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/audit", null));
        p.put("GET /api/v1/audit/export", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/audit/export", null));
        p.put("GET /api/v1/audit/accounts", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/audit/accounts", null));
        p.put("GET /api/v1/memory", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/memory", null));
        p.put("PUT /api/v1/memory", Probe.of(Expect.CALLERS_OWN, "PUT", "/api/v1/memory",
                Map.of("content", "bob's notes")));
        p.put("DELETE /api/v1/memory", Probe.of(Expect.CALLERS_OWN, "DELETE", "/api/v1/memory", null));
        p.put("GET /api/v1/memory/insights", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/memory/insights", null));
        p.put("PUT /api/v1/memory/insights/{id}", Probe.of(Expect.NOT_FOUND, "PUT",
                "/api/v1/memory/insights/ins_guessed", Map.of("pinned", true)));
        p.put("POST /api/v1/memory/insights/refine", Probe.of(Expect.CALLERS_OWN, "POST",
                "/api/v1/memory/insights/refine", Map.of("waitSeconds", 0)));
        p.put("DELETE /api/v1/memory/insights/{id}", Probe.of(Expect.NOT_FOUND, "DELETE",
                "/api/v1/memory/insights/ins_guessed", null));
        p.put("DELETE /api/v1/memory/insights", Probe.of(Expect.CALLERS_OWN, "DELETE", "/api/v1/memory/insights",
                null));
        p.put("GET /api/v1/me", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me", null));
        p.put("GET /api/v1/inbox", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/inbox", null));
        p.put("POST /api/v1/inbox", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/inbox",
                Map.of("text", "bob's task")));
        p.put("GET /api/v1/presets", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/presets", null));
        // Alice's turn ended, so she has a notification: none of it may reach Bob, in a list or on his stream.
        p.put("GET /api/v1/me/notifications", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/notifications",
                null));
        p.put("GET /api/v1/me/notifications/stream", Probe.of(Expect.CALLERS_OWN, "GET",
                "/api/v1/me/notifications/stream", null));
        p.put("POST /api/v1/me/notifications/read", Probe.of(Expect.CALLERS_OWN, "POST",
                "/api/v1/me/notifications/read", Map.of("upTo", 1_000_000)));
        p.put("GET /api/v1/me/notification-settings", Probe.of(Expect.CALLERS_OWN, "GET",
                "/api/v1/me/notification-settings", null));
        p.put("PUT /api/v1/me/notification-settings", Probe.of(Expect.CALLERS_OWN, "PUT",
                "/api/v1/me/notification-settings", Map.of("on", List.of("turn_ended"))));
        p.put("GET /api/v1/me/api-keys", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/api-keys", null));
        p.put("POST /api/v1/me/api-keys", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/me/api-keys",
                Map.of("name", "another")));
        p.put("GET /api/v1/me/logins", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/logins", null));
        p.put("POST /api/v1/me/password", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/me/password",
                Map.of("current", "alice-password-123", "password", "bob-new-password-1")));
        p.put("POST /api/v1/me/totp", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/me/totp", null));
        p.put("POST /api/v1/me/totp/confirm", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/me/totp/confirm",
                Map.of("code", "123456")));
        p.put("POST /api/v1/auth/logout", Probe.of(Expect.CALLERS_OWN, "POST", "/api/v1/auth/logout", null));
        // The WebSocket: a plain GET is refused (426) whatever the session. The upgrade itself, with someone else's
        // session, is closed exactly as for a missing one (4404): WebSocketApiIT.
        p.put("GET /ws", Probe.of(Expect.CALLERS_OWN, "GET", "/ws?session=" + aliceSession, null));
        p.put("GET /v1/models", Probe.of(Expect.CALLERS_OWN, "GET", "/v1/models", null));
        p.put("GET /api/v1/me/model", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/model", null));
        p.put("GET /api/v1/models", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/models", null));
        p.put("PUT /api/v1/me/model", Probe.of(Expect.CALLERS_OWN, "PUT", "/api/v1/me/model",
                Map.of("baseUrl", "http://127.0.0.1:9/v1", "apiKey", "sk-bob")));
        p.put("DELETE /api/v1/me/model", Probe.of(Expect.CALLERS_OWN, "DELETE", "/api/v1/me/model", null));
        p.put("GET /api/v1/me/mcp-servers", Probe.of(Expect.CALLERS_OWN, "GET", "/api/v1/me/mcp-servers", null));
        p.put("PUT /api/v1/me/mcp-servers", Probe.of(Expect.CALLERS_OWN, "PUT", "/api/v1/me/mcp-servers",
                Map.of("mcpServers", Map.of("bobs", Map.of("url", "http://127.0.0.1:9/mcp",
                        "headers", Map.of("Authorization", "Bearer bob-secret"))))));
        p.put("DELETE /api/v1/me/mcp-servers", Probe.of(Expect.CALLERS_OWN, "DELETE", "/api/v1/me/mcp-servers",
                null));
        // Admins only.
        p.put("GET /api/v1/admin/users", Probe.of(Expect.ADMIN_ONLY, "GET", "/api/v1/admin/users", null));
        p.put("POST /api/v1/admin/rebuild-memory", Probe.of(Expect.ADMIN_ONLY, "POST", "/api/v1/admin/rebuild-memory",
                Map.of("user", "alice")));
        p.put("GET /api/v1/admin/rebuild-memory/{rebuildId}", Probe.of(Expect.ADMIN_ONLY, "GET",
                "/api/v1/admin/rebuild-memory/rb_guessed", null));
        p.put("PUT /api/v1/admin/users/{userId}/role", Probe.of(Expect.ADMIN_ONLY, "PUT",
                "/api/v1/admin/users/bob/role", Map.of("role", "admin")));
        p.put("POST /api/v1/admin/users/{userId}/password", Probe.of(Expect.ADMIN_ONLY, "POST",
                "/api/v1/admin/users/alice/password", Map.of("password", "taken-over-12345")));
        p.put("DELETE /api/v1/admin/users/{userId}/totp", Probe.of(Expect.ADMIN_ONLY, "DELETE",
                "/api/v1/admin/users/alice/totp", null));
        p.put("DELETE /api/v1/admin/users/{userId}/api-keys", Probe.of(Expect.ADMIN_ONLY, "DELETE",
                "/api/v1/admin/users/alice/api-keys", null));
        p.put("POST /api/v1/admin/invites", Probe.of(Expect.ADMIN_ONLY, "POST", "/api/v1/admin/invites", null));
        p.put("GET /api/v1/admin/settings", Probe.of(Expect.ADMIN_ONLY, "GET", "/api/v1/admin/settings", null));
        p.put("PUT /api/v1/admin/settings", Probe.of(Expect.ADMIN_ONLY, "PUT", "/api/v1/admin/settings",
                Map.of("requireTotp", false)));
        p.put("GET /api/v1/admin/account-events", Probe.of(Expect.ADMIN_ONLY, "GET", "/api/v1/admin/account-events",
                null));
        p.put("GET /api/v1/admin/groups", Probe.of(Expect.ADMIN_ONLY, "GET", "/api/v1/admin/groups", null));
        p.put("POST /api/v1/admin/groups", Probe.of(Expect.ADMIN_ONLY, "POST", "/api/v1/admin/groups",
                Map.of("groupId", "bobs")));
        p.put("DELETE /api/v1/admin/groups/{groupId}", Probe.of(Expect.ADMIN_ONLY, "DELETE",
                "/api/v1/admin/groups/team", null));
        p.put("PUT /api/v1/admin/groups/{groupId}/members/{userId}", Probe.of(Expect.ADMIN_ONLY, "PUT",
                "/api/v1/admin/groups/team/members/bob", null));
        p.put("DELETE /api/v1/admin/groups/{groupId}/members/{userId}", Probe.of(Expect.ADMIN_ONLY, "DELETE",
                "/api/v1/admin/groups/team/members/alice", null));
        p.put("GET /api/v1/admin/rebuild-projections", Probe.of(Expect.ADMIN_ONLY, "GET",
                "/api/v1/admin/rebuild-projections", null));
        p.put("POST /api/v1/admin/rebuild-projections", Probe.of(Expect.ADMIN_ONLY, "POST",
                "/api/v1/admin/rebuild-projections", null));
        // Open: how one gets a login.
        p.put("POST /api/v1/auth/login", Probe.of(Expect.OPEN, "POST", "/api/v1/auth/login",
                Map.of("username", "alice", "password", "a-wrong-password")));
        p.put("POST /api/v1/auth/register", Probe.of(Expect.OPEN, "POST", "/api/v1/auth/register",
                Map.of("invite", "inv_guess", "username", "alice", "password", "alice-password-123")));
        p.put("GET /health", Probe.of(Expect.OPEN, "GET", "/health", null));
        // Open too, for a Prometheus scraper: counts and durations only, nothing of a session or a user.
        p.put("GET /metrics", Probe.of(Expect.OPEN, "GET", "/metrics", null));
        return p;
    }

    /**
     * The live side of the notification stream, which the route probe above (a stream's first two seconds) cannot
     * see: with Bob's stream open, a notification of Alice's is made and reaches her list; then one of Bob's. Bob's
     * stream carries his, and nothing of hers before it.
     */
    @Test
    void a_notification_of_alices_made_while_bob_listens_never_reaches_his_stream() throws Exception {
        String bobSession = UUID.randomUUID().toString();
        String first = "bob-first-" + UUID.randomUUID();
        String second = "bob-second-" + UUID.randomUUID();
        String hers = MARKER + "-live-" + UUID.randomUUID();
        String herSession = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(broker.kafka());
             Client.Listening stream = bob.open("/api/v1/me/notifications/stream")) {
            assertThat(stream.status()).isEqualTo(200);
            // Bob's first notification on his stream: it is connected and live from here on.
            log.append(bobSession, "bob", new SessionEvent.SessionCreated("bob's"));
            // Dated now: the writer's own clock is days back, and events over a day old notify nobody.
            log.appendAt(bobSession, "bob", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, first, null),
                    Instant.now());
            Await.until("bob's first notification on his stream", WAIT, () -> stream.received().contains(first));

            log.append(herSession, "alice", new SessionEvent.SessionCreated("hers"));
            log.appendAt(herSession, "alice", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, hers, null),
                    Instant.now());
            Await.until("alice's notification in her list", WAIT,
                    () -> alice.get("/api/v1/me/notifications").body().contains(hers));

            log.appendAt(bobSession, "bob", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, second, null),
                    Instant.now());
            Await.until("bob's second notification on his stream", WAIT, () -> stream.received().contains(second));
            assertThat(stream.received()).doesNotContain(hers).doesNotContain(herSession);
        }
    }

    @Test
    void every_route_of_the_gateway_has_a_probe() {
        Set<String> routes = gateway.context().getBean(Router.class).uriRoutes()
                .map(r -> r.getHttpMethodName() + " " + r.getUriMatchTemplate().toString())
                .collect(Collectors.toCollection(TreeSet::new));
        // Micronaut answers HEAD for every GET route with the GET's handler: the GET's probe covers it.
        routes.removeIf(r -> r.startsWith("HEAD ") && routes.contains("GET " + r.substring(5)));

        assertThat(probes().keySet()).as("a route without a probe here is a route nobody checked for isolation")
                .containsAll(routes);
        assertThat(routes).as("a probe of a route that is gone").containsAll(probes().keySet());
    }

    @Test
    void bob_gets_nothing_of_alices_from_any_route() {
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, Probe> e : probes().entrySet()) {
            Probe p = e.getValue();
            Client.Response r = send(bob, p);
            String what = e.getKey() + " -> " + r.status() + " " + r.body();
            // The ids Bob sent may come back in an error message; replaced by the ids of nothing, the answer must
            // be the very answer for nothing.
            String echoed = withoutAlicesIds(r.body());
            if (echoed.contains(MARKER) || echoed.contains("4242")) {
                failures.add("leaks alice's data: " + what);
            }
            switch (p.expect()) {
                case SAME_AS_MISSING -> {
                    Client.Response missing = send(bob, Probe.of(p.expect(), p.method(), p.path(),
                            withoutAlicesIds(String.valueOf(p.body()))));
                    if (r.status() >= 500 || r.status() != missing.status() || !echoed.equals(missing.body())) {
                        failures.add("not the answer for a missing one (" + missing.status() + " "
                                + missing.body() + "): " + what);
                    }
                }
                case NOT_FOUND -> {
                    Client.Response missing = send(bob, new Probe(p.expect(), p.method(),
                            withoutAlicesIds(p.path()), p.body(), p.headers().isEmpty() ? Map.of()
                            : Map.of("X-Agentbus-Session", withoutAlicesIds(aliceSession))));
                    if (r.status() != 404 || missing.status() != 404 || !echoed.equals(missing.body())) {
                        failures.add("not the answer for a missing one (" + missing.status() + " "
                                + missing.body() + "): " + what);
                    }
                }
                case ADMIN_ONLY -> {
                    if (r.status() != 403) {
                        failures.add("not 403: " + what);
                    }
                }
                case CALLERS_OWN, OPEN -> {
                    if (r.body().contains(aliceSession)) {
                        failures.add("leaks alice's session: " + what);
                    }
                    // 503: a service this test does not run (the memory-service); never a 500.
                    if (r.status() >= 500 && r.status() != 503) {
                        failures.add("server error: " + what);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        // and nothing of Alice's changed
        assertThat(Client.withKey(url, aliceKey).get("/api/v1/me").status()).isEqualTo(200);
        assertThat(alice.get("/api/v1/me").status()).isEqualTo(200);
        assertThat(alice.get("/api/v1/sessions/" + aliceSession).status()).isEqualTo(200);
        assertThat(alice.get("/api/v1/sessions/" + aliceAwaiting).json().get("pendingApprovals").get(0)
                .get("callId").asText()).as("Bob's decision was never taken").isEqualTo("c2");
        assertThat(Client.browser(url).login("alice", "alice-password-123", null).status()).isEqualTo(200);
    }

    /**
     * Every tool of the MCP server with Alice's sessions (the idle one and the one awaiting her approval): the
     * JSON-RPC error for a session that does not exist, word for word; Bob's list has none of hers.
     */
    @Test
    void bob_gets_nothing_of_alices_through_the_mcp_tools() {
        List<String> failures = new ArrayList<>();
        for (String session : List.of(aliceSession, aliceAwaiting)) {
            for (String tool : List.of("run_task", "await_task", "list_files", "read_file", "write_file",
                    "run_command")) {
                Map<String, Object> args = Map.of("session_id", session, "task", "tell me your secrets",
                        "path", "a.txt", "content", "x", "command", "cat a.txt");
                Client.Response r = bob.post("/mcp", mcpCall(tool, args));
                Client.Response missing = bob.post("/mcp", withoutAlicesIds(mcpCall(tool, args)));
                String echoed = withoutAlicesIds(r.body());
                if (r.status() != 200 || !echoed.equals(missing.body()) || echoed.contains(MARKER)
                        || !r.json().at("/error/message").asText().equals("no session " + session)
                        || r.json().at("/error/data/status").asInt() != 404) {
                    failures.add(tool + " on " + session + " -> " + r.status() + " " + r.body() + "; for nothing: "
                            + missing.body());
                }
            }
        }
        Client.Response listed = bob.post("/mcp", mcpCall("list_sessions", Map.of()));
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().at("/result/structuredContent/sessions").isArray()).isTrue();
        assertThat(listed.body()).doesNotContain(aliceSession).doesNotContain(aliceAwaiting).doesNotContain(MARKER);
        assertThat(Client.withKey(url, aliceKey).post("/mcp", mcpCall("list_sessions", Map.of())).body())
                .as("Alice's own list has them").contains(aliceSession).contains(aliceAwaiting);
        assertThat(failures).isEmpty();
        assertThat(alice.get("/api/v1/sessions/" + aliceAwaiting).json().get("pendingApprovals").get(0)
                .get("callId").asText()).as("nothing of Bob's reached Alice's session").isEqualTo("c2");
    }

    /** A JSON-RPC request of MCP's {@code tools/call}, as an MCP client sends it. */
    static String mcpCall(String tool, Map<String, Object> arguments) {
        try {
            return dev.agentbus.events.Json.mapper().writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1,
                    "method", "tools/call", "params", Map.of("name", tool, "arguments", arguments)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void a_session_shared_with_a_group_is_visible_to_its_members_read_only_or_writable() {
        Client admin = Client.withKey(url, TestGateway.TOKEN);
        Client carol = Client.withKey(url, newUser("carol").post("/api/v1/me/api-keys", Map.of("name", "k",
                "currentPassword", "carol-password-123")).json().get("key").asText());
        String s = "/api/v1/sessions/" + aliceSession;
        assertThat(admin.post("/api/v1/admin/groups", Map.of("groupId", "team")).status()).isEqualTo(201);
        assertThat(admin.put("/api/v1/admin/groups/team/members/carol", null).status()).isEqualTo(204);
        // The owner shares only with a group she is in (SharingPrivacyIT).
        assertThat(admin.put("/api/v1/admin/groups/team/members/alice", null).status()).isEqualTo(204);
        assertThat(carol.get(s).status()).isEqualTo(404);

        assertThat(alice.put(s + "/shares/team", Map.of("mode", "read")).status()).isEqualTo(200);
        assertThat(carol.get(s).status()).isEqualTo(200);
        assertThat(carol.get(s + "/log").body()).contains(MARKER);
        assertThat(carol.get("/api/v1/sessions").body()).contains(aliceSession);
        Client.Response readOnly = carol.post(s + "/messages", Map.of("text", "may I?"));
        assertThat(readOnly.status()).isEqualTo(403);
        assertThat(readOnly.message()).contains("read-only");
        assertThat(carol.put(s + "/mode", Map.of("mode", "auto")).status()).as("read-only: no mode change")
                .isEqualTo(403);
        assertThat(carol.post(s + "/approvals/c1", Map.of("decision", "approve")).status())
                .as("read-only: no decisions").isEqualTo(403);
        assertThat(carol.put(s + "/title", Map.of("title", "Carol's now")).status()).as("read-only: no renaming")
                .isEqualTo(403);
        assertThat(carol.post(s + "/whisper", Map.of("text", "psst")).status()).as("read-only: no whispers")
                .isEqualTo(403);
        assertThat(carol.put(s + "/shares/team", Map.of("mode", "write")).status())
                .as("only the owner shares").isEqualTo(404);
        assertThat(bob.get(s).status()).as("not a member").isEqualTo(404);

        assertThat(alice.put(s + "/shares/team", Map.of("mode", "write")).status()).isEqualTo(200);
        assertThat(carol.post(s + "/cancel", null).status()).as("past access; the session is idle").isEqualTo(409);
        assertThat(carol.post(s + "/whisper", Map.of("text", "psst")).status())
                .as("past access; no turn to whisper to").isEqualTo(409);
        assertThat(carol.post(s + "/approvals/c1", Map.of("decision", "approve")).status())
                .as("past access; c1 is not pending").isEqualTo(409);
        Client.Response deleting = carol.delete(s);
        assertThat(deleting.status()).as("only the owner deletes, even with write access").isEqualTo(403);
        assertThat(deleting.message()).isEqualTo("only the owner of session " + aliceSession + " may delete it");
        assertThat(alice.put(s + "/shares/team", Map.of("mode", "everything")).status()).isEqualTo(400);

        assertThat(alice.delete(s + "/shares/team").status()).isEqualTo(204);
        assertThat(carol.get(s).status()).isEqualTo(404);
    }

    private static String withoutAlicesIds(String text) {
        return text.replace(aliceSession, "00000000-0000-0000-0000-000000000000")
                .replace(aliceAwaiting, "00000000-0000-0000-0000-000000000003")
                .replace(aliceKeyId, "00000000-0000-0000-0000-000000000001")
                .replace(aliceLoginId, "00000000-0000-0000-0000-000000000002");
    }

    private static Client.Response send(Client client, Probe p) {
        if (p.path().endsWith("/stream")) {
            return client.listen(p.path(), Duration.ofSeconds(2)); // a stream never ends: what it sends at first
        }
        if (p.headers().isEmpty()) {
            return client.send(p.method(), p.path(), p.body());
        }
        return client.sendWithHeaders(p.method(), p.path(), p.body(), p.headers());
    }
}
