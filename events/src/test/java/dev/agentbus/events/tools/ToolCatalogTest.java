package dev.agentbus.events.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ToolCatalogTest {

    @Test
    void every_schema_is_a_json_object_schema_whose_required_arguments_are_declared() throws Exception {
        for (ToolSpec tool : ToolCatalog.ALL) {
            JsonNode schema = Json.mapper().readTree(tool.parametersSchema());

            assertThat(schema.path("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(schema.path("properties").isObject()).as(tool.name()).isTrue();
            for (JsonNode required : schema.path("required")) {
                assertThat(schema.path("properties").has(required.asText()))
                        .as(tool.name() + " requires " + required + " but does not declare it").isTrue();
            }
        }
    }

    @Test
    void names_are_unique_across_the_model_tools_and_the_user_tools() {
        List<String> names = new ArrayList<>();
        ToolCatalog.ALL.forEach(t -> names.add(t.name()));

        assertThat(names).doesNotHaveDuplicates().hasSize(ToolCatalog.TOOLS.size() + ToolCatalog.USER_TOOLS.size());
    }

    @Test
    void user_only_tools_are_flagged_and_never_among_the_tools_offered_to_the_model() {
        assertThat(ToolCatalog.USER_TOOLS).allMatch(ToolSpec::userOnly);
        assertThat(ToolCatalog.TOOLS).noneMatch(ToolSpec::userOnly);
        assertThat(ToolCatalog.userToolNames()).containsExactlyInAnyOrder("upload", "download", "rewind");
        assertThat(ToolCatalog.namesFor(ToolSpec.Executor.SANDBOX)).doesNotContain("upload", "download", "rewind");
    }

    @Test
    void find_knows_user_only_tools_too_so_the_orchestrator_can_accept_them_from_people() {
        assertThat(ToolCatalog.find("download")).get().extracting(ToolSpec::userOnly).isEqualTo(true);
        assertThat(ToolCatalog.find("shell")).get().extracting(ToolSpec::userOnly).isEqualTo(false);
        assertThat(ToolCatalog.find("no_such_tool")).isEmpty();
    }

    @Test
    void the_model_gets_the_full_tool_set_of_issue_3() {
        assertThat(ToolCatalog.namesFor(ToolSpec.Executor.SANDBOX)).contains("shell", "copy", "delete",
                "run_command", "git_status", "git_diff", "git_add", "git_commit", "git_branch", "git_log",
                "tmux_new", "tmux_list", "tmux_read", "vm_input", "vm_keys", "restart_terminal");
    }
}
