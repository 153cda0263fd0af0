package dev.agentbus.gateway.mcp;

import dev.agentbus.api.workspace.CommandRun;
import dev.agentbus.api.workspace.WorkspaceChange;
import dev.agentbus.api.workspace.WorkspaceFile;
import dev.agentbus.api.workspace.WorkspaceListing;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.workspace.WorkspaceOperations;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;

/**
 * A session's workspace as tools of the MCP server: {@code list_files}, {@code read_file}, {@code write_file} and
 * {@code run_command}. Each goes the way of the workspace routes ({@link WorkspaceOperations}): a person's tool call
 * on the session's log, run by the sandbox-worker, answered when its result is recorded; the gateway never touches
 * a workspace itself. The same rules as those routes hold: reads need a session the caller may see, changes one
 * they may act in, and nothing runs while a turn does.
 */
@Singleton
final class WorkspaceTools {
    private static final String OBJECT = "{\"type\":\"object\"}";

    private final SessionAccess sessions;
    private final WorkspaceOperations workspace;

    WorkspaceTools(SessionAccess sessions, WorkspaceOperations workspace) {
        this.sessions = sessions;
        this.workspace = workspace;
    }

    List<SyncToolSpecification> specifications(McpJsonMapper json) {
        return List.of(
                McpTools.tool(Tool.builder().name("list_files").title("List a session's files")
                        .description("Lists one directory of a session's workspace (at most 1000 entries).")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "session_id":{"type":"string"},
                                  "path":{"type":"string","description":"a directory relative to the workspace root; absent for the root"}},
                                 "required":["session_id"]}""")
                        .outputSchema(json, OBJECT)
                        .annotations(McpTools.annotations(true, false, true)).build(),
                        call -> listing(workspace.list(sessions.readable(call.string("session_id"), call.user()),
                                call.user(), call.optionalString("path")))),
                McpTools.tool(Tool.builder().name("read_file").title("Read a session's file")
                        .description("Reads a text file (UTF-8) of a session's workspace, whole.")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "session_id":{"type":"string"},
                                  "path":{"type":"string","description":"relative to the workspace root"}},
                                 "required":["session_id","path"]}""")
                        .outputSchema(json, OBJECT)
                        .annotations(McpTools.annotations(true, false, true)).build(),
                        call -> file(workspace.readText(sessions.readable(call.string("session_id"), call.user()),
                                call.user(), call.string("path")))),
                McpTools.tool(Tool.builder().name("write_file").title("Write a session's file")
                        .description("Creates or replaces a text file in a session's workspace, creating its "
                                + "directories; an existing file is backed up first, so the session can be rewound.")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "session_id":{"type":"string"},
                                  "path":{"type":"string","description":"relative to the workspace root"},
                                  "content":{"type":"string","description":"the whole new content; may be empty"}},
                                 "required":["session_id","path","content"]}""")
                        .outputSchema(json, OBJECT)
                        .annotations(McpTools.annotations(false, true, true)).build(),
                        call -> change(workspace.write(sessions.writable(call.string("session_id"), call.user()),
                                call.user(), call.string("path"), content(call)))),
                McpTools.tool(Tool.builder().name("run_command").title("Run a command in a session's sandbox")
                        .description("Runs a shell command line in the session's sandbox, in its workspace, and "
                                + "returns its output and exit code.")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "session_id":{"type":"string"},
                                  "command":{"type":"string"},
                                  "timeout_seconds":{"type":"integer","minimum":1,"maximum":120}},
                                 "required":["session_id","command"]}""")
                        .outputSchema(json, OBJECT)
                        .annotations(McpTools.annotations(false, true, false)).build(),
                        call -> command(workspace.execute(sessions.writable(call.string("session_id"), call.user()),
                                call.user(), call.string("command"), call.optionalInt("timeout_seconds"), null))));
    }

    /** Empty content is a file's content too: only a missing one is refused. */
    private static String content(ToolCall call) {
        String content = call.optionalString("content");
        if (content == null) {
            throw dev.agentbus.gateway.errors.ApiException.badRequest("content is required (it may be empty)");
        }
        return content;
    }

    private static CallToolResult listing(WorkspaceListing listing) {
        StringBuilder text = new StringBuilder();
        for (WorkspaceListing.Entry e : listing.entries()) {
            text.append(e.name()).append(switch (e.type()) {
                case WorkspaceListing.Entry.DIRECTORY -> "/";
                case WorkspaceListing.Entry.LINK -> " -> " + e.target();
                default -> "";
            }).append('\n');
        }
        if (listing.truncated()) {
            text.append("(more entries not shown)\n");
        }
        return result(listing.entries().isEmpty() ? "(empty directory)" : text.toString(), listing, false);
    }

    private static CallToolResult file(WorkspaceFile file) {
        return result(file.content(), file, false);
    }

    private static CallToolResult change(WorkspaceChange change) {
        return result(change.result() + (change.diff() == null ? "" : "\n\n" + change.diff()), change, false);
    }

    /** A command that ran but failed is a result (its output is worth reading), marked as an error. */
    private static CallToolResult command(CommandRun run) {
        String text = run.output() == null ? "" : run.output();
        if (run.error() != null) {
            text = text + (text.isEmpty() ? "" : "\n") + run.error();
        }
        boolean failed = !run.ok() || (run.exitCode() != null && run.exitCode() != 0);
        return result(text.isEmpty() ? "(no output)" : text, run, failed);
    }

    private static CallToolResult result(String text, Object answer, boolean failed) {
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = (Map<String, Object>) TaskTools.asJson(List.of(answer)).getFirst();
        return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(failed).build();
    }
}
