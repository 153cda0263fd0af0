package dev.agentbus.gateway.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The MCP server's tools about the agent itself: {@code run_task} (a turn, and its final answer),
 * {@code await_task} (the answer of a turn under way) and {@code list_sessions}. See docs/api.md#mcp-server.
 */
@Singleton
final class TaskTools {
    static final String REPORT_SCHEMA = """
            {"type":"object","properties":{
              "sessionId":{"type":"string"},
              "status":{"type":"string","enum":["completed","cancelled","iteration_cap","loop_detected","error",
                "awaiting_approval","running","refused","idle"]},
              "answer":{"type":["string","null"]},
              "message":{"type":["string","null"]},
              "approvals":{"type":"array","items":{"type":"object","properties":{
                "callId":{"type":"string"},"tool":{"type":"string"},"arguments":{"type":["string","null"]},
                "reason":{"type":["string","null"]},"expiresAt":{"type":["string","null"]}}}}},
             "required":["sessionId","status","approvals"]}""";

    private final AgentTasks tasks;
    private final SessionAccess sessions;
    private final McpSettings settings;

    TaskTools(AgentTasks tasks, SessionAccess sessions, McpSettings settings) {
        this.tasks = tasks;
        this.sessions = sessions;
        this.settings = settings;
    }

    List<SyncToolSpecification> specifications(McpJsonMapper json) {
        return List.of(
                McpTools.tool(Tool.builder().name("run_task").title("Run a task")
                        .description("Gives the Agentbus agent a task and returns its final answer when the turn "
                                + "ends. The agent works in a session with its own workspace and sandbox (files, "
                                + "shell, git). Without session_id a new session is started; with one, the task "
                                + "continues that conversation. A turn that needs a person's approval, or takes "
                                + "longer than timeout_seconds, returns with status awaiting_approval or running; "
                                + "await_task then waits for its answer.")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "task":{"type":"string","description":"what the agent should do"},
                                  "session_id":{"type":"string","description":"continue this session (from list_sessions or an earlier run_task)"},
                                  "timeout_seconds":{"type":"integer","minimum":1,"description":"how long to wait for the answer; the turn goes on after"}},
                                 "required":["task"]}""")
                        .outputSchema(json, REPORT_SCHEMA)
                        .annotations(McpTools.annotations(false, true, false)).build(),
                        call -> report(tasks.run(call.user(), call.optionalString("session_id"),
                                call.string("task"), wait(call)))),
                McpTools.tool(Tool.builder().name("await_task").title("Wait for a task's answer")
                        .description("Waits for the running turn of a session to end, also while it waits for a "
                                + "person's approval, and returns the agent's final answer; at once for a session "
                                + "with no turn running (the last turn's answer). If the wait runs out first it "
                                + "says running or awaiting_approval. Use it after run_task returned one of those.")
                        .inputSchema(json, """
                                {"type":"object","properties":{
                                  "session_id":{"type":"string"},
                                  "timeout_seconds":{"type":"integer","minimum":1}},
                                 "required":["session_id"]}""")
                        .outputSchema(json, REPORT_SCHEMA)
                        .annotations(McpTools.annotations(true, false, true)).build(),
                        call -> report(tasks.await(call.user(), call.string("session_id"), wait(call)))),
                McpTools.tool(Tool.builder().name("list_sessions").title("List sessions")
                        .description("The caller's Agentbus sessions (and those shared with their groups), most "
                                + "recently active first: id, title, status, last outcome, token usage.")
                        .inputSchema(json, "{\"type\":\"object\",\"properties\":{}}")
                        .outputSchema(json, """
                                {"type":"object","properties":{"sessions":{"type":"array","items":{"type":"object"}}},
                                 "required":["sessions"]}""")
                        .annotations(McpTools.annotations(true, false, true)).build(),
                        call -> sessionList(call.user())));
    }

    private Duration wait(ToolCall call) {
        return Duration.ofSeconds(settings.waitFor(call.optionalInt("timeout_seconds")));
    }

    private static CallToolResult report(TaskReport report) {
        return CallToolResult.builder().addTextContent(report.text()).structuredContent(report.structured())
                .isError(report.failed()).build();
    }

    private CallToolResult sessionList(String user) {
        List<SessionListEntry> entries = sessions.visible(user).stream().map(SessionListEntry::of).toList();
        StringBuilder text = new StringBuilder();
        for (SessionListEntry e : entries) {
            text.append(e.id()).append("  ").append(e.status().toLowerCase())
                    .append(e.lastOutcome() == null ? "" : " (" + e.lastOutcome().toLowerCase() + ")")
                    .append("  ").append(e.title() == null || e.title().isBlank() ? "(untitled)" : e.title())
                    .append('\n');
        }
        return CallToolResult.builder().addTextContent(entries.isEmpty() ? "no sessions yet" : text.toString())
                .structuredContent(Map.of("sessions", asJson(entries))).build();
    }

    /** The HTTP API's very JSON (the api module's records), as plain maps and lists for the SDK to write. */
    static List<Object> asJson(List<?> answers) {
        try {
            return Json.mapper().readValue(ApiJson.write(answers), new TypeReference<>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
