package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.RecordMcpTools;
import dev.agentbus.events.mcp.McpServerView;
import dev.agentbus.events.mcp.McpToolView;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import dev.agentbus.modelclient.ToolDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.call;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.calls;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.resultOf;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.turnAwaiting;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MCP servers' tools in the decider: given the tools the worker listed, when the model calls one, then it is a
 * sandbox call like {@code shell}: requested from the worker, or held for approval by its risk; a tool no live
 * server offers is unknown. The worker's listings are recorded once.
 */
class McpToolCallsTest {
    static final McpToolView ECHO = new McpToolView("mcp__everything__echo", "echo", "Echoes back the input",
            "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"}}}", true);
    static final McpToolView WRITE = new McpToolView("mcp__files__write_file", "write_file", "Write a file",
            "{\"type\":\"object\"}", false);
    static final List<McpServerView> SERVERS = List.of(
            new McpServerView("everything", "stdio", "team", true, null, List.of(ECHO)),
            new McpServerView("files", "stdio", "workspace", true, null, List.of(WRITE)),
            new McpServerView("broken", "http", "team", false, "could not start or list it: refused", List.of()));

    @Test
    void a_listing_from_the_worker_is_recorded_once_and_shown_in_the_state() {
        Decision first = given(new dev.agentbus.events.session.SessionEvent.SessionCreated("t", PermissionMode.AUTO))
                .when(new RecordMcpTools(SERVERS));
        assertThat(first.events()).containsExactly(new McpToolsListed(SERVERS));
        assertThat(first.state().mcp().servers()).isEqualTo(SERVERS);
        assertThat(first.state().mcp().tools()).extracting(McpToolView::name)
                .containsExactly("mcp__everything__echo", "mcp__files__write_file");

        Decision again = given(new dev.agentbus.events.session.SessionEvent.SessionCreated("t", PermissionMode.AUTO),
                new McpToolsListed(SERVERS)).when(new RecordMcpTools(SERVERS));
        assertThat(again.events()).as("the same listing again changes nothing").isEmpty();
    }

    @Test
    void the_model_is_offered_the_live_servers_tools_after_the_built_in_ones() {
        Decision d = given(new dev.agentbus.events.session.SessionEvent.SessionCreated("t", PermissionMode.AUTO),
                new McpToolsListed(SERVERS)).when(new RecordMcpTools(SERVERS));
        List<ToolDefinition> tools = PromptBuilder.tools(d.state());
        assertThat(tools).extracting(ToolDefinition::name).startsWith("read")
                .endsWith("mcp__everything__echo", "mcp__files__write_file");
        assertThat(tools.getLast().parametersJsonSchema()).isEqualTo("{\"type\":\"object\"}");
        assertThat(PromptBuilder.tools(given().when(new RecordMcpTools(List.of())).state()))
                .as("a session without servers has the built-in tools only").hasSameSizeAs(PromptBuilder.tools());
    }

    @Test
    void a_call_of_an_mcp_tool_goes_to_the_worker_like_any_sandbox_tool() {
        Decision d = turnAwaiting(new McpToolsListed(SERVERS))
                .when(calls("r1", call("c1", "mcp__everything__echo", "{\"message\": \"hi\"}")));

        assertThat(d.events()).contains(new ToolCallRequested("c1", "mcp__everything__echo", "{\"message\":\"hi\"}",
                null, false));
        assertThat(d.effects()).as("the model waits for the result").isEmpty();
    }

    @Test
    void approval_follows_the_servers_read_only_hint_read_only_tools_are_low_risk_the_others_high() {
        DeciderFixture f = turnAwaiting(new McpToolsListed(SERVERS),
                new PermissionModeChanged(PermissionMode.NORMAL, "alice"));

        Decision read = f.when(calls("r1", call("c1", "mcp__everything__echo", "{\"message\":\"hi\"}")));
        assertThat(read.events()).anyMatch(e -> e instanceof ToolCallRequested r && r.callId().equals("c1"));

        Decision write = f.when(calls("r1", call("c2", "mcp__files__write_file", "{\"path\":\"a\"}")));
        assertThat(write.events()).filteredOn(e -> e instanceof ApprovalRequested).singleElement()
                .satisfies(e -> {
                    ApprovalRequested a = (ApprovalRequested) e;
                    assertThat(a.tool()).isEqualTo("mcp__files__write_file");
                    assertThat(a.risk()).isEqualTo(Risk.HIGH);
                });
        assertThat(write.events()).noneMatch(e -> e instanceof ToolCallRequested);
    }

    @Test
    void a_tool_of_a_server_that_is_not_live_or_not_listed_is_unknown_and_named_among_the_available_ones() {
        Decision d = turnAwaiting(new McpToolsListed(SERVERS))
                .when(calls("r1", call("c1", "mcp__broken__anything", "{}")));

        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(resultOf(d, "c1").error()).startsWith("unknown tool 'mcp__broken__anything'")
                .contains("mcp__everything__echo", "mcp__files__write_file");
        assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested);
    }
}
