package dev.agentbus.events.mcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The names the model sees for MCP tools: {@code mcp__<server>__<tool>}, always a valid OpenAI tool name. */
class McpToolNamesTest {

    @Test
    void a_tool_is_named_by_its_server_and_its_own_name() {
        assertThat(McpToolNames.of("everything", "get-sum")).isEqualTo("mcp__everything__get-sum");
        assertThat(McpToolNames.isMcp("mcp__everything__get-sum")).isTrue();
        assertThat(McpToolNames.isMcp("shell")).isFalse();
        assertThat(McpToolNames.serverOf("mcp__files__read_text_file")).contains("files");
        assertThat(McpToolNames.serverOf("mcp__my_server__read_text_file")).contains("my_server");
        assertThat(McpToolNames.serverOf("read")).isEmpty();
    }

    @Test
    void characters_a_model_server_refuses_in_a_tool_name_become_underscores_and_long_names_are_cut_to_64() {
        assertThat(McpToolNames.of("web", "search.v2 (beta)")).isEqualTo("mcp__web__search_v2__beta_");
        String longName = McpToolNames.of("server", "x".repeat(100));
        assertThat(longName).hasSize(64).startsWith("mcp__server__xxx").matches("[A-Za-z0-9_-]+");
    }

    @ParameterizedTest
    @ValueSource(strings = {"everything", "files", "git-hub", "a1", "my_server"})
    void server_names_that_keep_the_tool_names_readable_are_accepted(String name) {
        assertThat(McpToolNames.serverNameProblem(name)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "two__underscores", "_lead", "trail_", "has space", "dot.ted", "ünï"})
    void other_server_names_are_refused_with_the_reason(String name) {
        assertThat(McpToolNames.serverNameProblem(name)).isPresent();
    }
}
