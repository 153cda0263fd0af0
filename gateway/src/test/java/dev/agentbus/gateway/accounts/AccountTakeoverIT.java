package dev.agentbus.gateway.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.gateway.accounts.credentials.AuthenticatorApp;
import dev.agentbus.gateway.accounts.credentials.Totp;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.workspace.FakeAgentHost;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.websocket.SocketClient;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The account attacks of issue 28, each as the probe ran it, through a real gateway, broker and PostgreSQL: a leaked
 * API key taking the account over, connections that outlive revocation, login throttles turned on the team, TOTP
 * guessed without end, and weak passwords. Every test here failed on the gateway before the fix.
 */
class AccountTakeoverIT {
    static final String ADMIN_PASSWORD = "correct horse battery staple";
    static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static String jdbcUrl;
    static TestGateway gateway;
    static FakeAgentHost host;
    static String url;

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).port(0).build();
        broker.start();
        TopicAdmin.ensureTopics(new KafkaSettings(broker.bootstrapServers(), 3, "0"));
        jdbcUrl = TestPostgres.newDatabase();
        gateway = new TestGateway(broker.bootstrapServers(), dir.resolve("gw"), jdbcUrl,
                Map.of("agentbus.admin-password", ADMIN_PASSWORD, "agentbus.auth.login-failures-per-minute", "1000"));
        url = gateway.url();
        host = new FakeAgentHost(new KafkaSettings(broker.bootstrapServers(), 3, "takeover-test"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (host != null) {
            host.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        broker.close();
    }

    static Client admin() {
        Client admin = Client.browser(url);
        assertThat(admin.login("admin", ADMIN_PASSWORD, null).status()).isEqualTo(200);
        return admin;
    }

    static String password(String username) {
        return username + "-password-123";
    }

    /** A new user through an invite, on {@code base}; returns a logged-in browser. */
    static Client newUser(String base, String username) {
        String code = admin().post("/api/v1/admin/invites", Map.of()).json().get("code").asText();
        Client.Response registered = Client.browser(base).post("/api/v1/auth/register",
                Map.of("invite", code, "username", username, "password", password(username)));
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        Client user = Client.browser(base);
        assertThat(user.login(username, password(username), null).status()).isEqualTo(200);
        return user;
    }

    static Client newUser(String username) {
        return newUser(url, username);
    }

    static String newKey(Client browser, String username) {
        Client.Response made = browser.post("/api/v1/me/api-keys", Map.of("name", "key " + UUID.randomUUID(),
                "currentPassword", password(username)));
        assertThat(made.status()).as(made.body()).isEqualTo(201);
        return made.json().get("key").asText();
    }

    // --- 4. a leaked API key takes over the account ---

    @Test
    void a_leaked_api_key_cannot_enrol_totp_mint_keys_end_logins_or_change_the_password() {
        Client owner = newUser("kate");
        Client thief = Client.withKey(url, newKey(owner, "kate"));
        String ownersLogin = owner.get("/api/v1/me/logins").json().get(0).get("loginId").asText();

        // Even with the password (phished along with the key), a key is not a browser login.
        Client.Response enrol = thief.post("/api/v1/me/totp", Map.of("currentPassword", password("kate")));
        Client.Response mint = thief.post("/api/v1/me/api-keys", Map.of("name", "spare",
                "currentPassword", password("kate")));
        Client.Response endLogin = thief.delete("/api/v1/me/logins/" + ownersLogin,
                Map.of("currentPassword", password("kate")));
        Client.Response change = thief.post("/api/v1/me/password", Map.of("currentPassword", password("kate"),
                "password", "the thiefs own password 1"));

        assertThat(List.of(enrol.status(), mint.status(), endLogin.status(), change.status()))
                .as(enrol.message() + " | " + mint.message() + " | " + endLogin.message() + " | " + change.message())
                .containsOnly(403);
        assertThat(enrol.message()).contains("API key cannot").contains("browser");
        assertThat(owner.get("/api/v1/me").json().get("totpEnabled").asBoolean()).isFalse();
        assertThat(owner.get("/api/v1/me/api-keys").json()).hasSize(1);
        assertThat(owner.get("/api/v1/me").status()).as("the owner's login lives").isEqualTo(200);
        assertThat(Client.browser(url).login("kate", password("kate"), null).status()).isEqualTo(200);
    }

    @Test
    void a_browser_login_needs_the_current_password_to_make_keys_enrol_or_end_logins() {
        Client liam = newUser("liam");
        Client.Response none = liam.post("/api/v1/me/api-keys", Map.of("name", "laptop"));
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.message()).contains("currentPassword");
        assertThat(liam.post("/api/v1/me/api-keys", Map.of("name", "laptop", "currentPassword", "not-it-at-all"))
                .message()).isEqualTo("the current password is wrong");
        assertThat(liam.post("/api/v1/me/totp", Map.of()).status()).isEqualTo(400);
        Client liamPhone = Client.browser(url);
        String phone = liamPhone.login("liam", password("liam"), null).json().get("loginId").asText();
        assertThat(liam.delete("/api/v1/me/logins/" + phone).status()).isEqualTo(400);
        assertThat(liamPhone.get("/api/v1/me").status()).isEqualTo(200);

        assertThat(liam.post("/api/v1/me/api-keys", Map.of("name", "laptop", "currentPassword", password("liam")))
                .status()).isEqualTo(201);
        assertThat(liam.post("/api/v1/me/totp", Map.of("currentPassword", password("liam"))).status())
                .isEqualTo(201);
        assertThat(liam.delete("/api/v1/me/logins/" + phone, Map.of("currentPassword", password("liam"))).status())
                .isEqualTo(204);
        assertThat(liamPhone.get("/api/v1/me").status()).isEqualTo(401);
    }

    @Test
    void an_admin_resets_a_users_totp_and_revokes_all_their_keys_and_both_are_audited() {
        Client mona = newUser("mona");
        Client first = Client.withKey(url, newKey(mona, "mona"));
        Client second = Client.withKey(url, newKey(mona, "mona"));
        // Someone enrolled a secret only they know (before this fix a key could): Mona is locked out.
        String secret = mona.post("/api/v1/me/totp", Map.of("currentPassword", password("mona"))).json()
                .get("secret").asText();
        assertThat(mona.post("/api/v1/me/totp/confirm", Map.of("code",
                AuthenticatorApp.code(secret, Totp.step(Instant.now())))).status()).isEqualTo(204);
        assertThat(Client.browser(url).login("mona", password("mona"), null).status()).isEqualTo(401);
        Client user = newUser("mona-colleague");
        assertThat(user.delete("/api/v1/admin/users/mona/totp").status()).as("admins only").isEqualTo(403);

        Client admin = admin();
        assertThat(admin.delete("/api/v1/admin/users/mona/totp").status()).isEqualTo(204);
        assertThat(Client.browser(url).login("mona", password("mona"), null).status()).isEqualTo(200);
        Client.Response revoked = admin.delete("/api/v1/admin/users/mona/api-keys");
        assertThat(revoked.status()).isEqualTo(200);
        assertThat(revoked.json().get("revoked")).hasSize(2);

        assertThat(first.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(second.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(admin.delete("/api/v1/admin/users/nobody-here/totp").status()).isEqualTo(404);
        JsonNode audit = admin.get("/api/v1/admin/account-events?limit=1000").json();
        List<String> aboutMona = new ArrayList<>();
        audit.forEach(e -> {
            if ("mona".equals(e.path("userId").asText())) {
                aboutMona.add(e.path("type").asText());
            }
        });
        assertThat(aboutMona).contains("totp_reset", "api_keys_revoked");
    }

    @Test
    void an_admin_password_reset_ends_every_login_and_every_key() {
        Client nora = newUser("nora");
        Client key = Client.withKey(url, newKey(nora, "nora"));

        assertThat(admin().post("/api/v1/admin/users/nora/password", Map.of("password", "a fresh one for nora 9"))
                .status()).isEqualTo(204);

        assertThat(key.get("/api/v1/me").status()).as("the key went with the old password").isEqualTo(401);
        assertThat(nora.get("/api/v1/me").status()).isEqualTo(401);
    }

    // --- 15. changing your own password keeps your other logins alive ---

    @Test
    void changing_ones_own_password_ends_the_other_logins_and_keys_but_not_this_login() {
        Client oscar = newUser("oscar");
        Client oscarPhone = Client.browser(url);
        assertThat(oscarPhone.login("oscar", password("oscar"), null).status()).isEqualTo(200);
        Client key = Client.withKey(url, newKey(oscar, "oscar"));

        assertThat(oscar.post("/api/v1/me/password", Map.of("currentPassword", password("oscar"),
                "password", "oscars second password")).status()).isEqualTo(204);

        assertThat(oscarPhone.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(key.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(oscar.get("/api/v1/me").status()).as("the login that changed it").isEqualTo(200);
    }

    // --- 6. open connections survive revocation ---

    private static String sessionOf(String user) throws InterruptedException {
        String id = UUID.randomUUID().toString();
        host.createSession(id, user);
        assertThat(gateway.context().getBean(SessionDirectory.class).awaitSession(id, Duration.ofSeconds(10)))
                .isTrue();
        return id;
    }

    @Test
    void a_websocket_opened_with_a_key_is_closed_4401_when_the_key_is_revoked() throws Exception {
        Client pia = newUser("pia");
        JsonNode made = pia.post("/api/v1/me/api-keys", Map.of("name", "socket", "currentPassword", password("pia")))
                .json();
        try (SocketClient socket = SocketClient.withToken(url, "session=" + sessionOf("pia"),
                made.get("key").asText())) {
            socket.ready();
            socket.command("w", "write_file", Map.of("path", "a.txt", "content", "secret\n"));
            assertThat(socket.answer("w").path("result").asText()).isEqualTo("Saved");

            assertThat(pia.delete("/api/v1/me/api-keys/" + made.get("id").asText()).status()).isEqualTo(204);

            assertThat(socket.awaitClose().getKey()).isEqualTo(4401);
        }
    }

    @Test
    void a_websocket_command_is_refused_once_its_key_was_revoked_elsewhere() throws Exception {
        Client quinn = newUser("quinn");
        JsonNode made = quinn.post("/api/v1/me/api-keys", Map.of("name", "socket",
                "currentPassword", password("quinn"))).json();
        try (SocketClient socket = SocketClient.withToken(url, "session=" + sessionOf("quinn"),
                made.get("key").asText())) {
            socket.ready();
            // Revoked by another replica: this one was not told, so only the check before each command can see it.
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                 PreparedStatement s = c.prepareStatement(
                         "UPDATE gateway.api_keys SET revoked_at = now() WHERE key_id = ?")) {
                s.setString(1, made.get("id").asText());
                assertThat(s.executeUpdate()).isEqualTo(1);
            }

            socket.command("r", "list_dir", Map.of());

            JsonNode refused = socket.until(m -> m.path("type").asText().equals("error")).getLast();
            assertThat(refused.path("error").asText() + refused).contains("unauthorized");
            assertThat(socket.awaitClose().getKey()).isEqualTo(4401);
        }
    }

    @Test
    void a_websocket_opened_with_a_login_cookie_is_closed_at_logout() throws Exception {
        Client rosa = newUser("rosa");
        try (SocketClient socket = SocketClient.connect(url, "session=" + sessionOf("rosa"),
                Map.of("Cookie", rosa.cookie()))) {
            socket.ready();

            assertThat(rosa.post("/api/v1/auth/logout", null).status()).isEqualTo(204);

            assertThat(socket.awaitClose().getKey()).isEqualTo(4401);
        }
    }

    @Test
    void sse_streams_end_when_their_key_is_revoked() throws Exception {
        Client sam = newUser("sam");
        JsonNode made = sam.post("/api/v1/me/api-keys", Map.of("name", "stream", "currentPassword", password("sam")))
                .json();
        Client program = Client.withKey(url, made.get("key").asText());
        try (Client.Listening notifications = program.open("/api/v1/me/notifications/stream");
             Client.Listening events = program.open("/api/v1/sessions/" + sessionOf("sam") + "/events")) {
            assertThat(notifications.status()).isEqualTo(200);
            assertThat(events.status()).isEqualTo(200);
            assertThat(notifications.reader().isAlive()).isTrue();
            assertThat(events.reader().isAlive()).isTrue();

            assertThat(sam.delete("/api/v1/me/api-keys/" + made.get("id").asText()).status()).isEqualTo(204);

            Poll.until("the notification stream to end", WAIT, () -> !notifications.reader().isAlive());
            Poll.until("the session's event stream to end", WAIT, () -> !events.reader().isAlive());
        }
    }

    // --- 9. the per-address login throttle locks everyone out behind a proxy ---

    @Test
    void behind_a_trusted_proxy_ten_bad_logins_from_one_client_do_not_block_another_users_correct_password()
            throws Exception {
        try (TestGateway proxied = new TestGateway(broker.bootstrapServers(), dir.resolve("proxied"), jdbcUrl,
                Map.of("agentbus.auth.login-failures-per-minute", "10",
                        "agentbus.auth.trusted-proxies", "127.0.0.1"))) {
            newUser(proxied.url(), "tina");
            Client attacker = Client.browser(proxied.url());
            for (int i = 0; i < 10; i++) {
                Client.Response r = attacker.sendWithHeaders("POST", "/api/v1/auth/login", Map.of("username",
                        "guess-" + i, "password", "guessing-" + i), Map.of("X-Forwarded-For", "203.0.113.7"));
                assertThat(r.status()).isEqualTo(401);
            }

            Client.Response tina = Client.browser(proxied.url()).sendWithHeaders("POST", "/api/v1/auth/login",
                    Map.of("username", "tina", "password", password("tina")),
                    Map.of("X-Forwarded-For", "198.51.100.2"));

            assertThat(tina.status()).as(tina.body()).isEqualTo(200);
            assertThat(attacker.sendWithHeaders("POST", "/api/v1/auth/login", Map.of("username", "guess-x",
                    "password", "guessing-x"), Map.of("X-Forwarded-For", "203.0.113.7")).status())
                    .as("the attacker's own address is still slowed").isEqualTo(429);
            JsonNode audit = admin().get("/api/v1/admin/account-events?limit=1000").json();
            assertThat(audit.findValuesAsText("address")).as("the audit names the client, not the proxy")
                    .contains("198.51.100.2", "203.0.113.7");
        }
    }

    @Test
    void the_per_address_limit_never_blocks_a_correct_password_and_the_per_username_limit_holds()
            throws Exception {
        try (TestGateway strict = new TestGateway(broker.bootstrapServers(), dir.resolve("strict"), jdbcUrl,
                Map.of("agentbus.auth.login-failures-per-minute", "10"))) {
            newUser(strict.url(), "uwe");
            newUser(strict.url(), "vera");
            Client office = Client.browser(strict.url());
            for (int i = 0; i < 10; i++) {
                assertThat(office.login("sprayed-" + i, "Summer2026!", null).status()).isEqualTo(401);
            }
            assertThat(office.login("sprayed-10", "Summer2026!", null).status()).as("wrong ones are slowed")
                    .isEqualTo(429);

            assertThat(Client.browser(strict.url()).login("uwe", password("uwe"), null).status())
                    .as("a correct password from the same address").isEqualTo(200);

            for (int i = 0; i < 10; i++) {
                office.login("vera", "not-veras-" + i, null);
            }
            Client.Response vera = Client.browser(strict.url()).login("vera", password("vera"), null);
            assertThat(vera.status()).as("ten failures on one name block it, right or wrong").isEqualTo(429);
        }
    }

    // --- 10. TOTP guessing never locks ---

    @Test
    void twenty_wrong_codes_lock_totp_with_an_audit_row_and_a_notification_until_a_backup_code_is_used()
            throws Exception {
        Client walt = newUser("walt");
        JsonNode enrolment = walt.post("/api/v1/me/totp", Map.of("currentPassword", password("walt"))).json();
        String secret = enrolment.get("secret").asText();
        long now = Totp.step(Instant.now());
        assertThat(walt.post("/api/v1/me/totp/confirm", Map.of("code", AuthenticatorApp.code(secret, now)))
                .status()).isEqualTo(204);
        // Far from now, so never inside the ±1 step window.
        String wrong = AuthenticatorApp.code(secret, now - 1000);

        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            answers.add(Client.browser(url).login("walt", password("walt"), wrong).message());
        }

        assertThat(answers.subList(0, 19)).containsOnly("wrong two-factor code");
        assertThat(answers.get(19)).contains("locked");
        Client.Response right = Client.browser(url).login("walt", password("walt"),
                AuthenticatorApp.code(secret, Totp.step(Instant.now()) + 1));
        assertThat(right.status()).as("a right code no longer logs in").isEqualTo(401);
        assertThat(right.message()).contains("locked").contains("backup code");
        JsonNode audit = walt.get("/api/v1/audit/accounts").json();
        assertThat(audit.findValuesAsText("type")).contains("totp_locked");
        Poll.until("the lock's notification", WAIT, () -> walt.get("/api/v1/me/notifications").json()
                .path("items").findValuesAsText("kind").contains("account"));

        assertThat(Client.browser(url).login("walt", password("walt"), enrolment.get("backupCodes").get(0).asText())
                .status()).as("a backup code unlocks").isEqualTo(200);
        assertThat(Client.browser(url).login("walt", password("walt"),
                AuthenticatorApp.code(secret, Totp.step(Instant.now()) + 1)).status()).as("codes work again")
                .isEqualTo(200);
    }

    @Test
    void an_admin_reset_unlocks_a_locked_second_factor() {
        Client xena = newUser("xena");
        String secret = xena.post("/api/v1/me/totp", Map.of("currentPassword", password("xena"))).json()
                .get("secret").asText();
        long now = Totp.step(Instant.now());
        assertThat(xena.post("/api/v1/me/totp/confirm", Map.of("code", AuthenticatorApp.code(secret, now)))
                .status()).isEqualTo(204);
        for (int i = 0; i < 20; i++) {
            Client.browser(url).login("xena", password("xena"), AuthenticatorApp.code(secret, now - 1000));
        }
        assertThat(Client.browser(url).login("xena", password("xena"), AuthenticatorApp.code(secret, now + 1))
                .message()).contains("locked");

        assertThat(admin().delete("/api/v1/admin/users/xena/totp").status()).isEqualTo(204);

        assertThat(Client.browser(url).login("xena", password("xena"), null).status()).isEqualTo(200);
    }

    // --- 14. the password policy is length only ---

    @Test
    void blank_username_based_common_and_unchanged_passwords_are_refused_with_a_clear_400() {
        String code = admin().post("/api/v1/admin/invites", Map.of()).json().get("code").asText();
        Map<String, String> refused = Map.of(
                "            ", "blank",
                "yvonneyvonne", "username",
                "Yvonne2026!!", "username",
                "password1234", "common",
                "qwertyuiop123", "common");
        refused.forEach((pw, rule) -> {
            Client.Response r = Client.browser(url).post("/api/v1/auth/register",
                    Map.of("invite", code, "username", "yvonne", "password", pw));
            assertThat(r.status()).as(pw).isEqualTo(400);
            assertThat(r.message()).as(pw).contains(rule);
        });
        Client yvonne = newUser("yvonne");
        Client.Response same = yvonne.post("/api/v1/me/password", Map.of("currentPassword", password("yvonne"),
                "password", password("yvonne")));
        assertThat(same.status()).isEqualTo(400);
        assertThat(same.message()).contains("same");
        assertThat(admin().post("/api/v1/admin/users/yvonne/password", Map.of("password", "yvonne-yvonne"))
                .status()).isEqualTo(400);
    }
}
