package dev.agentbus.orchestrator.deciding.mcp;

import dev.agentbus.events.input.SessionInput.RecordMcpTools;
import dev.agentbus.events.mcp.McpToolView;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The rules for MCP servers' tools: which tools a session has (the built-in catalogue, then its live MCP servers'
 * tools as {@code mcp__<server>__<tool>}), and what a tool of one is to the rest of the loop. An MCP tool is a
 * sandbox tool like {@code shell}: the sandbox-worker runs it, with approval, audit, redaction and replay unchanged.
 * Its risk is LOW when the server marks it read-only, HIGH otherwise, since what it does is out of our sight.
 */
public final class McpTools {
    private McpTools() {
    }

    /** A tool of the session by the name the model used: a built-in one, else one of its live MCP servers. */
    public static Optional<ToolSpec> find(SessionState state, String name) {
        return ToolCatalog.find(name).or(() -> state.mcp().tool(name).map(McpTools::spec));
    }

    /** Every tool offered to the model in this session, in the order it sees them. */
    public static List<ToolSpec> offered(SessionState state) {
        return Stream.concat(ToolCatalog.TOOLS.stream(), state.mcp().tools().stream().map(McpTools::spec)).toList();
    }

    /** The event a worker's listing becomes, or empty when it is what the log already says. */
    public static Optional<McpToolsListed> listed(SessionState state, RecordMcpTools input) {
        return input.servers().equals(state.mcp().servers())
                ? Optional.empty() : Optional.of(new McpToolsListed(input.servers()));
    }

    static ToolSpec spec(McpToolView tool) {
        return new ToolSpec(tool.name(), tool.description(), tool.parametersSchema(), ToolSpec.Executor.SANDBOX,
                false, tool.readOnly() ? Risk.LOW : Risk.HIGH);
    }
}
