package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.running.OrchestratorRuntime;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The loop guards' limits, as the orchestrator binds them (its runtime, which needs Kafka, is left out). */
class LoopGuardSettingsTest {

    @Test
    void without_settings_the_guards_take_lmagents_limits() {
        assertThat(bind(Map.of())).isEqualTo(new LoopGuardSettings(3, 8, 5, 2));
    }

    @Test
    void the_environment_variables_override_the_defaults_and_0_turns_a_guard_off() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("orchestrator", Map.of(
                "AGENTBUS_LOOP_GUARD_REPEATED_CALLS", "4",
                "AGENTBUS_LOOP_GUARD_NO_PROGRESS", "0",
                "AGENTBUS_LOOP_GUARD_TOOL_ERRORS", "7",
                "AGENTBUS_LOOP_GUARD_EMPTY_REPLIES", "1"), OrchestratorRuntime.class)) {
            assertThat(ctx.getBean(LoopGuardSettings.class)).isEqualTo(new LoopGuardSettings(4, 0, 7, 1));
        }
    }

    @Test
    void a_negative_limit_stops_the_orchestrator_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.loop-guard.tool-errors", "-1"))))
                .isEqualTo("agentbus.loop-guard.tool-errors must be 0 (off) or more, not -1");
    }

    private static LoopGuardSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("orchestrator", properties, OrchestratorRuntime.class)) {
            return ctx.getBean(LoopGuardSettings.class);
        }
    }
}
