package dev.agentbus.sandbox.tools;

import dev.agentbus.events.tools.ToolCatalog;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The worker's tools come from the catalogue: none listed there is missing here, none here is unlisted there. */
class ToolRegistryTest {
    @Test
    void every_catalogue_tool_the_worker_runs_has_an_implementation_and_every_implementation_is_catalogued() {
        assertThat(ToolRegistry.IMPLEMENTATIONS.keySet())
                .containsExactlyInAnyOrderElementsOf(ToolCatalog.workerToolNames());
    }

    @Test
    void the_user_tools_are_implemented_too_and_the_orchestrators_are_not() {
        assertThat(ToolExecutor.TOOL_NAMES).contains("upload", "download", "rewind").doesNotContain("wait");
    }

    @Test
    void every_implementation_can_be_built() {
        var tools = ToolRegistry.build(new ToolRegistry.Parts(SandboxSettings.defaults(), null));

        assertThat(tools.keySet()).containsExactlyElementsOf(ToolExecutor.TOOL_NAMES);
        assertThat(tools.values()).doesNotContainNull();
    }

    @Test
    void a_catalogue_and_registry_that_differ_are_refused_naming_both_differences() {
        assertThatThrownBy(() -> ToolRegistry.check(List.of("read", "fly"), List.of("read", "swim")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("listed but not implemented: [fly]")
                .hasMessageContaining("implemented but not listed: [swim]");
    }
}
