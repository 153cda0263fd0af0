package dev.agentbus.gateway.websocket;

import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The WebSocket limit as the gateway binds it (its Kafka-facing beans are left out). */
class WebSocketSettingsTest {

    @Test
    void without_settings_a_text_message_is_at_most_1_mib_and_the_environment_overrides_it() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(),
                KafkaFacingBeans.ALL)) {
            assertThat(ctx.getBean(WebSocketSettings.class).maxTextBytes()).isEqualTo(1_048_576);
        }
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(
                "AGENTBUS_GATEWAY_WEBSOCKET_MAX_TEXT_BYTES", "4096"), KafkaFacingBeans.ALL)) {
            assertThat(ctx.getBean(WebSocketSettings.class).maxTextBytes()).isEqualTo(4096);
        }
    }

    @Test
    void a_limit_outside_what_the_codec_reads_is_refused_naming_the_property() {
        assertThatThrownBy(() -> new WebSocketSettings(AgentSocket.FRAME_CAP + 1L))
                .hasMessageContaining("agentbus.gateway.websocket.max-text-bytes");
        assertThatThrownBy(() -> new WebSocketSettings(10)).hasMessageContaining("between 1024");
    }
}
