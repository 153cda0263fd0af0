package dev.agentbus.sandbox.tools;

import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ToolNamesTest {
    @Test
    void the_executor_implements_exactly_the_sandbox_tools_of_the_catalog() {
        List<String> catalog = new ArrayList<>(ToolCatalog.namesFor(ToolSpec.Executor.SANDBOX));
        catalog.addAll(ToolCatalog.userToolNames());

        assertThat(ToolExecutor.TOOL_NAMES).containsExactlyInAnyOrderElementsOf(catalog);
    }
}
