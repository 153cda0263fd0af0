package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.modelclient.ToolDefinition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PromptBuilderUserToolsTest {
    @Test
    void tools_only_people_run_are_never_offered_to_the_model() {
        assertThat(PromptBuilder.tools()).extracting(ToolDefinition::name)
                .doesNotContainAnyElementsOf(ToolCatalog.userToolNames())
                .contains("run_command", "restart_terminal", "vm_keys");
    }
}
