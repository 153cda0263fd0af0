package dev.agentbus.gateway.accounts;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.MemoryAction;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.LogWriter;
import dev.agentbus.gateway.readmodels.TestBroker;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sharing tells no secrets (issue 28, failures 12 and 13), through a real gateway, broker and PostgreSQL. Alice's
 * session carries her memory document, the insights injected into its prompt and the agent's {@code manage_memory}
 * calls, each with a marker; Carol, in a group Alice shares the session with, reads it every way the gateway serves
 * a session and finds the conversation but never the marker. And a session is shared only with a group its owner is
 * in, with one answer for a group that does not exist and one the owner is not in.
 */
class SharingPrivacyIT {
    static final String MEMORY = "alice-memory-document-marker";
    static final String INSIGHT = "alice-insight-marker";
    static final String MANAGED = "alice-managed-marker";
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static TestBroker broker;
    static TestGateway gateway;
    static String url;
    static String jdbcUrl;
    static String session;
    static Client admin;
    static Client alice;
    static Client carol;
    static Client dave;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("kafka"));
        KafkaSettings kafka = broker.kafka();
        jdbcUrl = TestPostgres.newDatabase();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), jdbcUrl,
                Map.of("agentbus.admin-password", AccountsIT.ADMIN_PASSWORD));
        url = gateway.url();
        admin = Client.withKey(url, TestGateway.TOKEN);
        alice = newUser("alice");
        carol = newUser("carol");
        dave = newUser("dave");

        session = UUID.randomUUID().toString();
        try (LogWriter log = new LogWriter(kafka)) {
            log.append(session, "alice", new SessionEvent.SessionCreated("alice's shared work"));
            log.append(session, "alice", new SessionEvent.UserMessagePosted("hello team"));
            // What the orchestrator records at a turn's start: her memory document and her insights for the prompt.
            log.append(session, "alice", new SessionEvent.MemoryAttached("I am Alice. " + MEMORY, 3));
            log.append(session, "alice", new SessionEvent.InsightsInjected(List.of(
                    new InjectedInsight("i1", InsightCategory.PREFERENCE, "prefers " + INSIGHT))));
            // The agent lists her insights and adds one: the calls, the change and the results quote them.
            log.append(session, "alice", new SessionEvent.ModelCallCompleted("r1", "qwen-7b", null, null, List.of(
                    new ToolCallSpec("m1", "manage_memory", "{\"action\":\"list\"}"),
                    new ToolCallSpec("m2", "manage_memory", "{\"action\":\"add\",\"category\":\"preference\","
                            + "\"text\":\"" + MANAGED + "\"}")), TokenUsage.ZERO, "tool_calls"));
            log.append(session, "alice", new SessionEvent.ToolCallCompleted("m1", true,
                    "i1 preference prefers " + INSIGHT, null, null, false, 1, false));
            log.append(session, "alice", new SessionEvent.MemoryManaged("m2", MemoryAction.ADD, "i2",
                    InsightCategory.PREFERENCE, MANAGED));
            log.append(session, "alice", new SessionEvent.ToolCallCompleted("m2", true,
                    "Remembered as insight i2: " + MANAGED, null, null, false, 1, false));
            log.append(session, "alice", new SessionEvent.ModelCallCompleted("r2", "qwen-7b", "hi, the team answer",
                    null, List.of(), TokenUsage.ZERO, "stop"));
            log.appendAt(session, "alice", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "hi, the team answer",
                    null), Instant.now());
        }
        Await.until("alice's turn in the view", WAIT, () -> alice.get("/api/v1/sessions/" + session).body()
                .contains("COMPLETED"));

        assertThat(admin.post("/api/v1/admin/groups", Map.of("groupId", "team")).status()).isEqualTo(201);
        assertThat(admin.put("/api/v1/admin/groups/team/members/alice", null).status()).isEqualTo(204);
        assertThat(admin.put("/api/v1/admin/groups/team/members/carol", null).status()).isEqualTo(204);
        // A group Alice is not in, whose members she might like to reach (the admins, say).
        assertThat(admin.post("/api/v1/admin/groups", Map.of("groupId", "others")).status()).isEqualTo(201);
        assertThat(admin.put("/api/v1/admin/groups/others/members/dave", null).status()).isEqualTo(204);
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
        Client admin = Client.browser(url);
        admin.login("admin", AccountsIT.ADMIN_PASSWORD, null);
        String code = admin.post("/api/v1/admin/invites", Map.of()).json().get("code").asText();
        Client.browser(url).post("/api/v1/auth/register", Map.of("invite", code, "username", username,
                "password", username + "-password-123"));
        Client user = Client.browser(url);
        assertThat(user.login(username, username + "-password-123", null).status()).isEqualTo(200);
        return user;
    }

    @Test
    void a_group_member_sees_the_conversation_but_never_the_owners_memory() throws Exception {
        String s = "/api/v1/sessions/" + session;
        assertThat(alice.put(s + "/shares/team", Map.of("mode", "read")).status()).isEqualTo(200);

        // The owner sees her own memory: the markers are really there to leak.
        assertThat(alice.get(s).body()).contains(MEMORY).contains(INSIGHT).contains(MANAGED);
        assertThat(alice.get(s + "/log").body()).contains(MEMORY).contains(INSIGHT).contains(MANAGED);

        Map<String, String> seen = new java.util.LinkedHashMap<>();
        seen.put("state", carol.get(s).body());
        seen.put("log", carol.get(s + "/log").body());
        seen.put("JSON Lines export", carol.get(s + "/export").body());
        seen.put("Markdown export", carol.get(s + "/export.md").body());
        try (Client.Listening events = carol.open(s + "/events")) {
            Await.until("the whole log on the event stream", WAIT, () -> events.received().contains("turn.ended"));
            seen.put("event stream", events.received());
        }
        String token = alice.post(s + "/share-links", null).json().get("token").asText();
        seen.put("share link", Client.browser(url).get("/api/v1/shared/" + token).body());

        seen.forEach((where, body) -> {
            assertThat(body).as(where + ": the conversation is shared").contains("hi, the team answer");
            assertThat(body).as(where).doesNotContain(MEMORY).doesNotContain(INSIGHT).doesNotContain(MANAGED);
        });
        assertThat(seen.get("log")).as("the same events, seq for seq").contains("memory.attached.v1")
                .contains("\"seq\":10");
    }

    @Test
    void a_session_is_shared_only_with_a_group_its_owner_is_in_and_no_answer_tells_which_groups_exist() {
        String s = "/api/v1/sessions/" + session;
        Client.Response notHers = alice.put(s + "/shares/others", Map.of("mode", "write"));
        Client.Response unknown = alice.put(s + "/shares/no-such-group", Map.of("mode", "write"));

        assertThat(notHers.status()).as(notHers.body()).isEqualTo(404);
        assertThat(unknown.status()).isEqualTo(notHers.status());
        assertThat(unknown.body()).as("byte for byte").isEqualTo(notHers.body());
        assertThat(notHers.body()).doesNotContain("others");
        assertThat(dave.get(s).status()).as("nothing reaches the other group").isEqualTo(404);
    }

    @Test
    void a_share_made_with_a_group_the_owner_is_not_in_opens_nothing() throws Exception {
        // As the old code let Alice do, written where the gateway keeps shares.
        try (Connection c = DriverManager.getConnection(jdbcUrl); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO gateway.session_shares (session_id, group_id, mode, shared_by, shared_at) "
                        + "VALUES (?, 'others', 'read', 'alice', now()) ON CONFLICT DO NOTHING")) {
            insert.setString(1, session);
            insert.executeUpdate();
        }
        assertThat(dave.get("/api/v1/sessions/" + session).status()).isEqualTo(404);
        assertThat(dave.get("/api/v1/sessions").body()).doesNotContain(session);
    }
}
