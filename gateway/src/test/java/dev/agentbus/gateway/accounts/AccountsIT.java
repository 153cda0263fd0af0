package dev.agentbus.gateway.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.gateway.accounts.credentials.AuthenticatorApp;
import dev.agentbus.gateway.accounts.credentials.Totp;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.readmodels.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Team accounts through a real gateway, broker and PostgreSQL: the first admin, invites, logins with cookies and
 * CSRF tokens, API keys, TOTP with backup codes, roles, password resets, the two-factor rule and the account audit.
 */
class AccountsIT {
    static final String ADMIN_PASSWORD = "correct horse battery staple";

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static String jdbcUrl;
    static TestGateway gateway;
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
    }

    @AfterAll
    static void stop() {
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

    /** A new user with the given role, registered through an invite; returns a logged-in browser. */
    static Client newUser(String username, String role) {
        String code = admin().post("/api/v1/admin/invites", Map.of("role", role)).json().get("code").asText();
        Client.Response registered = Client.browser(url).post("/api/v1/auth/register",
                Map.of("invite", code, "username", username, "password", username + "-password-123"));
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        Client user = Client.browser(url);
        assertThat(user.login(username, username + "-password-123", null).status()).isEqualTo(200);
        return user;
    }

    static String totp(String secret, long step) {
        return AuthenticatorApp.code(secret, step);
    }

    @Test
    void the_first_admin_logs_in_with_the_configured_password_and_gets_a_strict_cookie() {
        Client browser = Client.browser(url);
        Client.Response r = browser.login("admin", ADMIN_PASSWORD, null);

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("role").asText()).isEqualTo("admin");
        String setCookie = r.headers().allValues("Set-Cookie").stream()
                .filter(h -> h.startsWith("agentbus_login=")).findFirst().orElseThrow();
        assertThat(setCookie).containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict").contains("Path=/")
                .doesNotContain("Secure");
        JsonNode me = browser.get("/api/v1/me").json();
        assertThat(me.get("username").asText()).isEqualTo("admin");
        assertThat(me.get("userId").asText()).as("the gateway's user, so older sessions stay the admin's")
                .isEqualTo("local");
        assertThat(me.get("via").asText()).isEqualTo("login");
        assertThat(me.get("csrfToken").asText()).isEqualTo(r.json().get("csrfToken").asText());
    }

    @Test
    void the_gateway_token_acts_as_the_admin() {
        JsonNode me = Client.withKey(url, TestGateway.TOKEN).get("/api/v1/me").json();

        assertThat(me.get("userId").asText()).isEqualTo("local");
        assertThat(me.get("role").asText()).isEqualTo("admin");
        assertThat(me.get("via").asText()).isEqualTo("gateway-token");
        assertThat(Client.withKey(url, TestGateway.TOKEN).get("/api/v1/admin/users").status()).isEqualTo(200);
    }

    @Test
    void wrong_passwords_unknown_users_and_malformed_bodies_are_refused_with_json() {
        Client browser = Client.browser(url);
        assertThat(browser.login("admin", "not the password", null).status()).isEqualTo(401);
        Client.Response unknown = browser.login("nobody-at-all", "whatever-password", null);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.message()).isEqualTo("wrong username or password");
        assertThat(browser.post("/api/v1/auth/login", "{not json").status()).isEqualTo(400);
        assertThat(browser.post("/api/v1/auth/login", Map.of("username", "admin")).status()).isEqualTo(400);
        Client.Response anonymous = browser.get("/api/v1/sessions");
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.message()).contains("log in");
    }

    @Test
    void a_malformed_or_ended_cookie_is_a_401_with_a_message() {
        Client browser = Client.browser(url);
        browser.cookie("agentbus_login=ls_forged-value");
        Client.Response r = browser.get("/api/v1/me");
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.message()).contains("log in again");
        browser.cookie("agentbus_login=");
        assertThat(browser.get("/api/v1/me").status()).isEqualTo(401);
    }

    @Test
    void an_invite_registers_one_person_once() {
        Client admin = admin();
        JsonNode invite = admin.post("/api/v1/admin/invites", Map.of()).json();
        String code = invite.get("code").asText();
        assertThat(invite.get("role").asText()).isEqualTo("user");

        Client.Response registered = Client.browser(url).post("/api/v1/auth/register",
                Map.of("invite", code, "username", "Carol", "password", "carol-password-123"));
        assertThat(registered.status()).isEqualTo(201);
        assertThat(registered.json().get("username").asText()).isEqualTo("carol");

        Client.Response again = Client.browser(url).post("/api/v1/auth/register",
                Map.of("invite", code, "username", "carol2", "password", "carol-password-123"));
        assertThat(again.status()).isEqualTo(400);
        assertThat(again.message()).contains("already used");
        assertThat(Client.browser(url).post("/api/v1/auth/register", Map.of("invite", "inv_made-up",
                "username", "x", "password", "x-password-123")).message()).contains("unknown invite");

        Client carol = Client.browser(url);
        assertThat(carol.login("carol", "carol-password-123", null).status()).isEqualTo(200);
        assertThat(carol.get("/api/v1/me").json().get("role").asText()).isEqualTo("user");
    }

    @Test
    void an_expired_invite_or_a_short_password_or_a_taken_name_is_refused_and_leaves_the_invite_usable()
            throws Exception {
        String expired = "inv_expired-" + UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement s = c.prepareStatement("INSERT INTO gateway.invites (code_hash, role, created_by, "
                     + "created_at, expires_at) VALUES (?, 'user', 'local', now() - interval '2 days', "
                     + "now() - interval '1 day')")) {
            s.setString(1, dev.agentbus.gateway.accounts.credentials.SecretTokens.sha256Hex(expired));
            s.executeUpdate();
        }
        assertThat(Client.browser(url).post("/api/v1/auth/register", Map.of("invite", expired, "username", "dan",
                "password", "dan-password-123")).message()).contains("expired");

        String code = admin().post("/api/v1/admin/invites", Map.of("expiresInHours", 2)).json().get("code").asText();
        Client.Response shortPassword = Client.browser(url).post("/api/v1/auth/register",
                Map.of("invite", code, "username", "dan", "password", "short"));
        assertThat(shortPassword.status()).isEqualTo(400);
        assertThat(shortPassword.message()).contains("at least 12 characters");
        Client.Response taken = Client.browser(url).post("/api/v1/auth/register",
                Map.of("invite", code, "username", "admin", "password", "dan-password-123"));
        assertThat(taken.status()).isEqualTo(409);
        assertThat(Client.browser(url).post("/api/v1/auth/register", Map.of("invite", code, "username", "dan",
                "password", "dan-password-123")).status()).as("the refused tries did not use it up").isEqualTo(201);
        assertThat(admin().post("/api/v1/admin/invites", Map.of("role", "owner")).status()).isEqualTo(400);
    }

    @Test
    void a_browser_request_that_changes_something_needs_the_logins_csrf_token() {
        Client erin = newUser("erin", "user");
        assertThat(erin.postWithCsrf("/api/v1/me/api-keys", Map.of("name", "laptop"), null).status())
                .isEqualTo(403);
        Client.Response forged = erin.postWithCsrf("/api/v1/me/api-keys", Map.of("name", "laptop"), "forged");
        assertThat(forged.status()).isEqualTo(403);
        assertThat(forged.message()).contains("X-CSRF-Token");
        assertThat(erin.get("/api/v1/me/api-keys").json()).as("nothing was made").isEmpty();
        assertThat(erin.post("/api/v1/me/api-keys", Map.of("name", "laptop", "currentPassword", "erin-password-123"))
                .status()).isEqualTo(201);
    }

    @Test
    void an_api_key_is_shown_once_works_as_a_bearer_and_stops_working_when_revoked() {
        Client frank = newUser("frank", "user");
        JsonNode created = frank.post("/api/v1/me/api-keys", Map.of("name", "ci",
                "currentPassword", "frank-password-123")).json();
        String key = created.get("key").asText();
        assertThat(key).startsWith("ab_");

        Client program = Client.withKey(url, key);
        JsonNode me = program.get("/api/v1/me").json();
        assertThat(me.get("username").asText()).isEqualTo("frank");
        assertThat(me.get("via").asText()).isEqualTo("api-key");
        assertThat(program.post("/api/v1/me/api-keys", Map.of("name", "a key cannot make keys",
                "currentPassword", "frank-password-123")).status()).isEqualTo(403);

        JsonNode listed = frank.get("/api/v1/me/api-keys").json();
        assertThat(listed).hasSize(1);
        assertThat(listed.toString()).doesNotContain(key);
        assertThat(listed.findValuesAsText("name")).contains("ci");
        JsonNode ci = java.util.stream.StreamSupport.stream(listed.spliterator(), false)
                .filter(k -> k.get("name").asText().equals("ci")).findFirst().orElseThrow();
        assertThat(ci.get("lastUsedAt").isNull()).isFalse();

        assertThat(frank.delete("/api/v1/me/api-keys/" + created.get("id").asText()).status()).isEqualTo(204);
        Client.Response revoked = program.get("/api/v1/me");
        assertThat(revoked.status()).isEqualTo(401);
        assertThat(revoked.message()).contains("revoked");
        assertThat(frank.delete("/api/v1/me/api-keys/" + created.get("id").asText()).status()).isEqualTo(404);
    }

    @Test
    void two_factor_enrolment_then_every_login_needs_a_fresh_code_or_a_backup_code() {
        Client grace = newUser("grace", "user");
        JsonNode enrolment = grace.post("/api/v1/me/totp", Map.of("currentPassword", "grace-password-123")).json();
        String secret = enrolment.get("secret").asText();
        assertThat(enrolment.get("otpauthUri").asText()).startsWith("otpauth://totp/Agentbus:grace?secret=" + secret);
        assertThat(enrolment.get("qrSvg").asText()).startsWith("<svg").contains("<path");
        List<String> backup = new ArrayList<>();
        enrolment.get("backupCodes").forEach(c -> backup.add(c.asText()));
        assertThat(backup).hasSize(10);

        long now = Totp.step(Instant.now());
        assertThat(grace.post("/api/v1/me/totp/confirm", Map.of("code", "000000")).status()).isEqualTo(400);
        assertThat(grace.post("/api/v1/me/totp/confirm", Map.of("code", totp(secret, now))).status())
                .isEqualTo(204);
        assertThat(grace.get("/api/v1/me").json().get("totpEnabled").asBoolean()).isTrue();

        Client.Response noCode = Client.browser(url).login("grace", "grace-password-123", null);
        assertThat(noCode.status()).isEqualTo(401);
        assertThat(noCode.json().get("totpRequired").asBoolean()).isTrue();
        assertThat(Client.browser(url).login("grace", "grace-password-123", totp(secret, now)).message())
                .as("the code used to confirm cannot log in").contains("already used");
        String next = totp(secret, now + 1);
        assertThat(Client.browser(url).login("grace", "grace-password-123", next).status()).isEqualTo(200);
        assertThat(Client.browser(url).login("grace", "grace-password-123", next).message())
                .as("no replay").contains("already used");
        assertThat(Client.browser(url).login("grace", "grace-password-123", backup.getFirst().toUpperCase())
                .status()).isEqualTo(200);
        assertThat(Client.browser(url).login("grace", "grace-password-123", backup.getFirst()).status())
                .as("a backup code works once").isEqualTo(401);
        assertThat(Client.browser(url).login("grace", "wrong-password-123", backup.get(1)).message())
                .isEqualTo("wrong username or password");
    }

    @Test
    void only_admins_reach_admin_routes_and_a_role_change_takes_effect_at_once() {
        Client heidi = newUser("heidi", "user");
        Client.Response refused = heidi.get("/api/v1/admin/users");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.message()).contains("only admins");
        assertThat(heidi.post("/api/v1/admin/invites", Map.of()).status()).isEqualTo(403);
        assertThat(heidi.post("/api/v1/admin/rebuild-projections", null).status()).isEqualTo(403);

        assertThat(admin().put("/api/v1/admin/users/heidi/role", Map.of("role", "admin")).status()).isEqualTo(204);
        assertThat(heidi.get("/api/v1/admin/users").status()).isEqualTo(200);
        assertThat(admin().put("/api/v1/admin/users/heidi/role", Map.of("role", "user")).status()).isEqualTo(204);
        assertThat(heidi.get("/api/v1/admin/users").status()).isEqualTo(403);
        assertThat(admin().put("/api/v1/admin/users/nobody/role", Map.of("role", "user")).status()).isEqualTo(404);
    }

    @Test
    void an_admin_password_reset_ends_the_users_logins() {
        Client ivan = newUser("ivan", "user");
        Client ivanElsewhere = Client.browser(url);
        ivanElsewhere.login("ivan", "ivan-password-123", null);
        assertThat(admin().post("/api/v1/admin/users/ivan/password", Map.of("password", "short")).status())
                .isEqualTo(400);

        assertThat(admin().post("/api/v1/admin/users/ivan/password", Map.of("password", "a-new-password-456"))
                .status()).isEqualTo(204);

        assertThat(ivan.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(ivanElsewhere.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(Client.browser(url).login("ivan", "ivan-password-123", null).status()).isEqualTo(401);
        assertThat(Client.browser(url).login("ivan", "a-new-password-456", null).status()).isEqualTo(200);
    }

    @Test
    void people_see_their_own_logins_and_can_end_any_of_them() {
        Client judy = newUser("judy", "user");
        Client judyPhone = Client.browser(url);
        String phoneLogin = judyPhone.login("judy", "judy-password-123", null).json().get("loginId").asText();

        JsonNode logins = judy.get("/api/v1/me/logins").json();
        assertThat(logins).hasSize(2);
        assertThat(logins.findValuesAsText("address")).containsOnly("127.0.0.1");
        assertThat(logins.findValues("current").stream().filter(JsonNode::asBoolean)).hasSize(1);

        assertThat(judy.delete("/api/v1/me/logins/" + phoneLogin, Map.of("currentPassword", "judy-password-123"))
                .status()).isEqualTo(204);
        assertThat(judyPhone.get("/api/v1/me").status()).isEqualTo(401);
        assertThat(judy.get("/api/v1/me/logins").json()).hasSize(1);
        assertThat(admin().delete("/api/v1/me/logins/" + phoneLogin, Map.of("currentPassword", ADMIN_PASSWORD))
                .status()).as("not someone else's").isEqualTo(404);
    }

    @Test
    void logout_ends_the_login_and_clears_the_cookie() {
        Client kim = newUser("kim", "user");
        Client.Response out = kim.post("/api/v1/auth/logout", null);
        assertThat(out.status()).isEqualTo(204);
        assertThat(out.headers().allValues("Set-Cookie")).anySatisfy(h -> assertThat(h)
                .startsWith("agentbus_login=;").containsIgnoringCase("Max-Age=0"));
        assertThat(kim.get("/api/v1/me").status()).isEqualTo(401);
    }

    @Test
    void changing_ones_password_needs_the_current_one() {
        Client leo = newUser("leo", "user");
        assertThat(leo.post("/api/v1/me/password", Map.of("current", "wrong-password-1",
                "password", "leo-new-password-1")).status()).isEqualTo(400);
        assertThat(leo.post("/api/v1/me/password", Map.of("current", "leo-password-123",
                "password", "leo-new-password-1")).status()).isEqualTo(204);
        assertThat(Client.browser(url).login("leo", "leo-new-password-1", null).status()).isEqualTo(200);
    }

    @Test
    void when_the_team_requires_two_factor_a_login_without_it_can_only_enrol() {
        Client mia = newUser("mia", "user");
        Client.Response lockout = admin().put("/api/v1/admin/settings", Map.of("requireTotp", true));
        assertThat(lockout.status()).as("an admin without two-factor would lock themselves out").isEqualTo(409);
        Client admin = Client.withKey(url, TestGateway.TOKEN);
        assertThat(admin.put("/api/v1/admin/settings", Map.of("requireTotp", true)).status()).isEqualTo(200);
        try {
            Client miaAgain = Client.browser(url);
            Client.Response login = miaAgain.login("mia", "mia-password-123", null);
            assertThat(login.json().get("mustEnrolTotp").asBoolean()).isTrue();
            Client.Response blocked = miaAgain.get("/api/v1/sessions");
            assertThat(blocked.status()).isEqualTo(403);
            assertThat(blocked.message()).contains("two-factor");
            assertThat(miaAgain.get("/api/v1/me").json().get("mustEnrolTotp").asBoolean()).isTrue();
            assertThat(miaAgain.post("/api/v1/me/totp", Map.of("currentPassword", "mia-password-123")).status())
                    .isEqualTo(201);
            assertThat(mia.get("/api/v1/me/api-keys").status()).as("existing logins too").isEqualTo(403);
        } finally {
            admin.put("/api/v1/admin/settings", Map.of("requireTotp", false));
        }
        assertThat(mia.get("/api/v1/me/api-keys").status()).isEqualTo(200);
    }

    @Test
    void logins_failures_and_key_changes_are_in_the_account_audit_with_user_and_address() {
        Client nina = newUser("nina", "user");
        Client.browser(url).login("nina", "wrong-password-99", null);
        nina.post("/api/v1/me/api-keys", Map.of("name", "audit me", "currentPassword", "nina-password-123"));

        JsonNode mine = nina.get("/api/v1/audit/accounts").json();
        assertThat(mine.findValuesAsText("type")).contains("registered", "login", "login_failed",
                "api_key_created");
        assertThat(mine.findValuesAsText("address")).containsOnly("127.0.0.1");
        assertThat(mine.findValuesAsText("userId")).containsOnly("nina");
        assertThat(mine.toString()).doesNotContain("wrong-password-99").doesNotContain("nina-password-123");

        JsonNode all = admin().get("/api/v1/admin/account-events?limit=1000").json();
        assertThat(all.findValuesAsText("type")).contains("admin_created", "invite_created", "registered");
        assertThat(admin().get("/api/v1/admin/account-events?limit=0").status()).isEqualTo(400);
    }

    @Test
    void every_answer_carries_a_strict_content_security_policy() {
        for (Client.Response r : List.of(Client.browser(url).get("/api/v1/me"), admin().get("/api/v1/me"),
                Client.browser(url).get("/health"))) {
            assertThat(r.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                    assertThat(csp).contains("default-src 'self'").contains("frame-ancestors 'none'")
                            .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval"));
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        }
    }

    @Test
    void the_web_ui_is_served_at_the_root_under_the_same_policy_and_routes_still_win() {
        Client.Response page = Client.browser(url).get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("text/html"));
        assertThat(page.body()).contains("<script type=\"module\" src=\"/js/app.js\">").doesNotContain("<script>");
        assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
        for (String module : List.of("/js/app.js", "/vendor/marked/marked.esm.js", "/vendor/dompurify/purify.es.js",
                "/vendor/highlight/highlight.min.js")) {
            Client.Response js = Client.browser(url).get(module);
            assertThat(js.status()).as(module).isEqualTo(200);
            assertThat(js.headers().firstValue("Content-Type")).as(module)
                    .hasValueSatisfying(t -> assertThat(t).contains("javascript"));
        }
        assertThat(Client.browser(url).get("/api/v1/me").status()).as("the API is not shadowed").isEqualTo(401);
        assertThat(Client.browser(url).get("/no-such-page.html").status()).isEqualTo(404);
    }

    @Test
    void a_generated_admin_password_is_written_for_the_owner_only() throws Exception {
        Path data = dir.resolve("generated");
        try (TestGateway fresh = new TestGateway(broker.bootstrapServers(), data, TestPostgres.newDatabase())) {
            Path file = data.resolve("admin-password");
            String password = Files.readString(file).trim();
            assertThat(password).hasSizeGreaterThanOrEqualTo(20);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(Client.browser(fresh.url()).login("admin", password, null).status()).isEqualTo(200);
        }
    }

    @Test
    void ten_failed_logins_a_minute_then_429_with_retry_after() throws Exception {
        try (TestGateway strict = new TestGateway(broker.bootstrapServers(), dir.resolve("strict"), jdbcUrl,
                Map.of("agentbus.auth.login-failures-per-minute", "10"))) {
            Client browser = Client.browser(strict.url());
            for (int i = 0; i < 10; i++) {
                assertThat(browser.login("admin", "guess-" + i, null).status()).isEqualTo(401);
            }
            Client.Response blocked = browser.login("admin", ADMIN_PASSWORD, null);
            assertThat(blocked.status()).isEqualTo(429);
            assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(s ->
                    assertThat(Integer.parseInt(s)).isBetween(1, 60));
            assertThat(blocked.message()).contains("too many failed logins");
        }
    }
}
