package dev.agentbus.orchestrator.config;

import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.orchestrator.running.OrchestratorRuntime;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which calls wait for a person, as the orchestrator binds it (its runtime, which needs Kafka, is left out). */
class PermissionSettingsTest {

    @Test
    void without_settings_sessions_run_in_auto_mode_as_before_and_approvals_expire_after_30_minutes() {
        PermissionSettings s = bind(Map.of());

        assertThat(s.defaultMode()).isEqualTo(PermissionMode.AUTO);
        assertThat(s.approvalTimeout()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("orchestrator", Map.of(
                "AGENTBUS_PERMISSIONS_MODE", "Normal",
                "AGENTBUS_PERMISSIONS_APPROVAL_TIMEOUT", "90s"), OrchestratorRuntime.class)) {
            PermissionSettings s = ctx.getBean(PermissionSettings.class);
            assertThat(s.defaultMode()).isEqualTo(PermissionMode.NORMAL);
            assertThat(s.approvalTimeout()).isEqualTo(Duration.ofSeconds(90));
        }
    }

    @Test
    void a_mode_that_is_not_one_of_the_three_stops_the_orchestrator_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.permissions.mode", "yolo"))))
                .isEqualTo("agentbus.permissions.mode must be auto, normal or manual, not 'yolo'");
    }

    @Test
    void a_time_out_that_is_not_positive_stops_the_orchestrator() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.permissions.approval-timeout", "0s"))))
                .isEqualTo("agentbus.permissions.approval-timeout must be positive, not PT0S");
    }

    private static PermissionSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("orchestrator", properties, OrchestratorRuntime.class)) {
            return ctx.getBean(PermissionSettings.class);
        }
    }
}
