package dev.agentbus.gateway.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;

/**
 * Each user's agent as an MCP server (docs/api.md#mcp-server): the MCP Java SDK's stateless server with the tools of
 * {@link TaskTools} and {@link WorkspaceTools}, reached through {@link McpController} at {@code /mcp}. One server
 * serves every user: who calls is in each request, and each tool answers for that user's sessions only.
 */
@Singleton
final class AgentMcpServer {
    static final String NAME = "agentbus";
    static final String INSTRUCTIONS = "Agentbus runs an AI agent with its own workspace and sandbox. run_task "
            + "gives it a task and returns its final answer; pass the session_id it returns to continue the same "
            + "conversation and workspace. list_sessions shows your sessions; list_files, read_file, write_file and "
            + "run_command work in a session's workspace while no turn runs.";

    private final StatelessHttpTransport transport;
    private final McpStatelessSyncServer server;

    AgentMcpServer(TaskTools tasks, WorkspaceTools workspace) {
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        this.transport = new StatelessHttpTransport(json);
        List<SyncToolSpecification> tools = new ArrayList<>(tasks.specifications(json));
        tools.addAll(workspace.specifications(json));
        String version = AgentMcpServer.class.getPackage().getImplementationVersion();
        this.server = McpServer.sync(transport)
                .serverInfo(NAME, version == null ? "dev" : version)
                .instructions(INSTRUCTIONS)
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .jsonMapper(json)
                // The controller already runs on a blocking thread: the tools wait there, not on another pool.
                .immediateExecution(true)
                .tools(tools)
                .build();
    }

    StatelessHttpTransport transport() {
        return transport;
    }

    @PreDestroy
    void close() {
        server.close();
    }
}
