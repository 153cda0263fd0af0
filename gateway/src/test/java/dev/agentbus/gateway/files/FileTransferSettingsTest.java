package dev.agentbus.gateway.files;

import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The upload and download limits as the gateway binds them (its Kafka-facing beans are left out). */
class FileTransferSettingsTest {

    @Test
    void without_settings_a_transfer_waits_30_s_and_carries_at_most_512_kib() {
        assertThat(bind(Map.of())).isEqualTo(new FileTransferSettings(30, 524288));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(
                "AGENTBUS_GATEWAY_FILES_TIMEOUT_SECONDS", "5",
                "AGENTBUS_GATEWAY_FILES_MAX_BYTES", "1024"), KafkaFacingBeans.ALL)) {
            assertThat(ctx.getBean(FileTransferSettings.class)).isEqualTo(new FileTransferSettings(5, 1024));
        }
    }

    @Test
    void a_time_out_below_one_second_stops_the_gateway_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.gateway.files.timeout-seconds", "0"))))
                .isEqualTo("agentbus.gateway.files.timeout-seconds must be at least 1, not 0");
    }

    @Test
    void a_size_that_is_not_a_number_stops_the_gateway() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.gateway.files.max-bytes", "512k"))))
                .isEqualTo("agentbus.gateway.files.max-bytes must be a whole number, not '512k'");
    }

    private static FileTransferSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("gateway", properties, KafkaFacingBeans.ALL)) {
            return ctx.getBean(FileTransferSettings.class);
        }
    }
}
