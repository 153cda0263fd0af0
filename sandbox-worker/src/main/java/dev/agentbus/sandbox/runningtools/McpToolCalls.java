package dev.agentbus.sandbox.runningtools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpToolNames;
import dev.agentbus.sandbox.mcp.McpSessions;
import dev.agentbus.sandbox.tools.ToolOutcome;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Sends a call of an MCP server's tool ({@code mcp__<server>__<tool>}) to that server ({@link McpSessions}), and
 * every other call on to the built-in tools. Sits under {@link RedactingToolCalls}, so what a server answers is
 * masked like any tool's output.
 */
final class McpToolCalls implements ToolCalls {
    private final McpSessions mcp;
    private final Workspaces workspaces;
    private final ToolCalls builtIn;

    McpToolCalls(McpSessions mcp, Workspaces workspaces, ToolCalls builtIn) {
        this.mcp = mcp;
        this.workspaces = workspaces;
        this.builtIn = builtIn;
    }

    @Override
    public ToolOutcome run(TakenCall call, Consumer<String> liveOutput) {
        if (!McpToolNames.isMcp(call.request().name())) {
            return builtIn.run(call, liveOutput);
        }
        if (call.request().byUser()) {
            return ToolOutcome.failure("MCP tools are the agent's; a person runs only the user tools");
        }
        try {
            JsonNode args = Json.mapper().readTree(call.request().arguments());
            return mcp.call(call.userId(), call.sessionId(), workspaces.forSession(call.userId(), call.sessionId()),
                    call.request().name(), args, call.cause().id());
        } catch (IOException e) {
            return ToolOutcome.failure("cannot prepare the call: " + e.getMessage());
        }
    }
}
