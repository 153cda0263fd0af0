package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.running.OrchestratorRuntime;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent loop's settings as the orchestrator binds them (its runtime, which needs Kafka, is left out). */
class AgentSettingsTest {

    @Test
    void without_settings_a_turn_makes_at_most_25_model_calls_with_the_built_in_prompt_and_snapshots_every_100() {
        assertThat(bind(Map.of())).isEqualTo(new AgentSettings(25, "", 100));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("orchestrator", Map.of(
                "AGENTBUS_AGENT_MAX_ITERATIONS", "7",
                "AGENTBUS_AGENT_SYSTEM_PROMPT", "Be brief.",
                "AGENTBUS_ORCHESTRATOR_SNAPSHOT_EVERY", "0"), OrchestratorRuntime.class)) {
            assertThat(ctx.getBean(AgentSettings.class)).isEqualTo(new AgentSettings(7, "Be brief.", 0));
        }
    }

    @Test
    void an_iteration_cap_below_one_stops_the_orchestrator_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.agent.max-iterations", "0"))))
                .isEqualTo("agentbus.agent.max-iterations must be at least 1, not 0");
    }

    @Test
    void a_negative_snapshot_interval_stops_the_orchestrator() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.orchestrator.snapshot-every", "-1"))))
                .isEqualTo("agentbus.orchestrator.snapshot-every must be 0 (off) or more, not -1");
    }

    @Test
    void an_iteration_cap_that_is_not_a_number_stops_the_orchestrator_instead_of_using_the_default() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.agent.max-iterations", "many"))))
                .isEqualTo("agentbus.agent.max-iterations must be a whole number, not 'many'");
    }

    private static AgentSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("orchestrator", properties, OrchestratorRuntime.class)) {
            return ctx.getBean(AgentSettings.class);
        }
    }
}
