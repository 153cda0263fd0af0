package dev.agentbus.gateway.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The gateway's token and user settings as it binds them (its Kafka-facing beans are left out). */
class GatewaySettingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The defaults, and what they promise when the gateway runs: a token is generated, kept in
     * {@code <data dir>/gateway-token} readable by its owner only, taken again after a restart, and a request with it
     * acts as the user {@code local}.
     */
    @Test
    void without_settings_requests_act_as_local_and_the_token_is_generated(@TempDir Path dataDir) throws Exception {
        assertThat(bind(Map.of())).isEqualTo(new GatewaySettings("", "", "local", ""));

        Path file = dataDir.resolve("gateway-token");
        String token;
        try (GatewayWithoutKafka gateway = new GatewayWithoutKafka(Map.of("agentbus.data-dir", dataDir.toString()))) {
            assertThat(gateway.get("/api/v1/me", null).statusCode()).as("no token, no entry").isEqualTo(401);
            assertThat(file).exists();
            assertThat(Files.getPosixFilePermissions(file))
                    .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
            token = Files.readString(file).trim();
            assertThat(token).as("24 random bytes in hex").matches("[0-9a-f]{48}");

            HttpResponse<String> me = gateway.get("/api/v1/me", token);
            assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
            assertThat(JSON.readTree(me.body()).path("userId").asText()).isEqualTo("local");
            assertThat(gateway.get("/api/v1/me", token + "0").statusCode()).isEqualTo(401);
        }
        try (GatewayWithoutKafka restarted = new GatewayWithoutKafka(
                Map.of("agentbus.data-dir", dataDir.toString()))) {
            HttpResponse<String> me = restarted.get("/api/v1/me", token);
            assertThat(me.statusCode()).as("the same token after a restart: " + me.body()).isEqualTo(200);
            assertThat(Files.readString(file).trim()).isEqualTo(token);
        }
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(
                "AGENTBUS_GATEWAY_TOKEN", "gateway-secret",
                "AGENTBUS_TOKEN", "shared-secret",
                "AGENTBUS_GATEWAY_USER", "ada",
                "AGENTBUS_DATA_DIR", "/srv/agentbus"), KafkaFacingBeans.ALL)) {
            assertThat(ctx.getBean(GatewaySettings.class))
                    .isEqualTo(new GatewaySettings("gateway-secret", "shared-secret", "ada", "/srv/agentbus"));
        }
    }

    @Test
    void the_gateway_token_wins_over_the_shared_one() {
        assertThat(new GatewaySettings("gateway-secret", "shared-secret", "local", "").configuredToken())
                .isEqualTo("gateway-secret");
        assertThat(new GatewaySettings("", "shared-secret", "local", "").configuredToken())
                .isEqualTo("shared-secret");
    }

    @Test
    void the_token_is_taken_from_agentbus_token_when_the_gateway_has_none(@TempDir Path dataDir) {
        GatewayToken token = new GatewayToken(new GatewaySettings("", "shared-secret", "local", dataDir.toString()));

        assertThat(token.matches("shared-secret")).isTrue();
        assertThat(Files.exists(dataDir.resolve("gateway-token"))).isFalse();
    }

    @Test
    void a_user_id_that_cannot_name_a_directory_stops_the_gateway() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.gateway.user", "../root"))))
                .isEqualTo("agentbus.gateway.user must be letters, digits, '.', '_' or '-' (at most 128, starting "
                        + "with a letter or digit), not '../root'");
    }

    @Test
    void the_tokens_are_never_printed() {
        assertThat(new GatewaySettings("gateway-secret", "shared-secret", "local", "").toString())
                .doesNotContain("secret");
    }

    private static GatewaySettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("gateway", properties, KafkaFacingBeans.ALL)) {
            return ctx.getBean(GatewaySettings.class);
        }
    }
}
