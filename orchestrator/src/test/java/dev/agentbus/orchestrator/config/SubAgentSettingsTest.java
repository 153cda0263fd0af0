package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;
import dev.agentbus.orchestrator.running.OrchestratorRuntime;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How far sessions may delegate, as the orchestrator binds it (its runtime, which needs Kafka, is left out). */
class SubAgentSettingsTest {

    @Test
    void without_settings_three_children_run_at_once_with_ten_model_calls_and_the_file_tools() {
        assertThat(bind(Map.of()).limits()).isEqualTo(SubAgentLimits.DEFAULTS);
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("orchestrator", Map.of(
                "AGENTBUS_SUB_AGENTS_MAX_RUNNING", "5",
                "AGENTBUS_SUB_AGENTS_MAX_ITERATIONS", "4",
                "AGENTBUS_SUB_AGENTS_DEFAULT_TOOLS", "read, grep"), OrchestratorRuntime.class)) {
            assertThat(ctx.getBean(SubAgentSettings.class).limits())
                    .isEqualTo(new SubAgentLimits(5, 4, List.of("read", "grep")));
        }
    }

    @Test
    void a_bad_value_stops_the_orchestrator_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.sub-agents.max-running", "0"))))
                .isEqualTo("agentbus.sub-agents.max-running must be at least 1, not 0");
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.sub-agents.default-tools", "read,task"))))
                .isEqualTo("agentbus.sub-agents.default-tools: a sub-agent cannot start sub-agents of its own (task)");
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.sub-agents.default-tools", "upload"))))
                .startsWith("agentbus.sub-agents.default-tools: unknown tool 'upload'");
    }

    private static SubAgentSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("orchestrator", properties, OrchestratorRuntime.class)) {
            return ctx.getBean(SubAgentSettings.class);
        }
    }
}
