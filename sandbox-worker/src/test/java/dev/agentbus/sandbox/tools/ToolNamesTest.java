package dev.agentbus.sandbox.tools;

import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolNamesTest {
    @Test
    void the_executor_implements_exactly_the_sandbox_tools_of_the_catalog() {
        assertThat(ToolExecutor.TOOL_NAMES)
                .containsExactlyInAnyOrderElementsOf(ToolCatalog.namesFor(ToolSpec.Executor.SANDBOX));
    }
}
