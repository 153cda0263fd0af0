package dev.agentbus.gateway.mcp;

import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How long the MCP server's tools wait for a turn, as the gateway binds it (its Kafka-facing beans left out). */
class McpSettingsTest {

    @Test
    void without_settings_a_call_waits_50_s_and_may_ask_for_at_most_600() {
        assertThat(bind(Map.of())).isEqualTo(new McpSettings(50, 600));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(
                "AGENTBUS_GATEWAY_MCP_WAIT_SECONDS", "20",
                "AGENTBUS_GATEWAY_MCP_MAX_WAIT_SECONDS", "3600"), KafkaFacingBeans.ALL)) {
            assertThat(ctx.getBean(McpSettings.class)).isEqualTo(new McpSettings(20, 3600));
        }
    }

    @Test
    void a_maximum_below_the_default_wait_stops_the_gateway_naming_both() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.gateway.mcp.max-wait-seconds", "10"))))
                .isEqualTo("agentbus.gateway.mcp.max-wait-seconds (10) must be at least "
                        + "agentbus.gateway.mcp.wait-seconds (50)");
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.gateway.mcp.wait-seconds", "0"))))
                .isEqualTo("agentbus.gateway.mcp.wait-seconds must be at least 1, not 0");
    }

    private static McpSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("gateway", properties, KafkaFacingBeans.ALL)) {
            return ctx.getBean(McpSettings.class);
        }
    }
}
