package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.orchestrator.deciding.planning.PlanningText;
import dev.agentbus.modelclient.ToolCall;
import dev.agentbus.modelclient.ToolDefinition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns folded session state into the messages of the next model call. Pure: the same state and time give the
 * same prompt, so any model call can be explained from the log.
 *
 * <p>Reasoning is never sent back to the model. Each assistant message with tool calls is followed directly by
 * one result per call, in the order the model asked, because OpenAI-compatible servers reject a tool call without
 * an answer; a call whose result never came (the turn was cancelled first) gets a placeholder saying so.
 */
public final class PromptBuilder {
    public static final String DEFAULT_SYSTEM_PROMPT = """
            You are an autonomous agent working in a sandboxed workspace. Use the tools to read and write files \
            and to run shell commands; paths are relative to the workspace root. Work step by step, check your \
            results, and finish with a short answer that says what you did.
            To pause and continue later, end your reply with a line `WAIT: <ISO-8601 time>: <reason>` or call the \
            wait tool.""";

    private final String systemPrompt;

    public PromptBuilder(String systemPrompt) {
        this.systemPrompt = systemPrompt == null || systemPrompt.isBlank() ? DEFAULT_SYSTEM_PROMPT : systemPrompt;
    }

    public List<ChatMessage> build(SessionState state, Instant now) {
        List<ChatMessage> out = new ArrayList<>();
        out.add(new ChatMessage.System(system(state, now)));
        for (Message m : state.messages()) {
            switch (m) {
                case Message.User u -> out.add(new ChatMessage.User(u.text()));
                case Message.Notice n -> out.add(new ChatMessage.User("[agentbus] " + n.text()));
                case Message.Assistant a -> {
                    out.add(new ChatMessage.Assistant(a.content(), a.toolCalls().stream()
                            .map(c -> new ToolCall(c.id(), c.name(), c.arguments())).toList()));
                    for (ToolCallSpec call : a.toolCalls()) {
                        out.add(new ChatMessage.ToolResult(call.id(), resultOf(state.toolCalls().get(call.id()))));
                    }
                }
                case Message.Tool t -> {
                    // Already placed right after the assistant message that asked for it.
                }
            }
        }
        return out;
    }

    private String system(SessionState state, Instant now) {
        StringBuilder sb = new StringBuilder(systemPrompt);
        sb.append("\n\nThe current time is ").append(now).append(" (UTC).");
        if (state.memory() != null && !state.memory().isBlank()) {
            sb.append("\n\nWhat you remember about this user:\n").append(state.memory());
        }
        sb.append(PlanningText.promptSection(state.planning()));
        return sb.toString();
    }

    private static String resultOf(ToolCallView view) {
        if (view == null || view.status() != ToolCallView.Status.COMPLETED) {
            return "No result: the turn ended before this call finished.";
        }
        return view.resultForModel();
    }

    public static List<ToolDefinition> tools() {
        return ToolCatalog.TOOLS.stream()
                .map(t -> new ToolDefinition(t.name(), t.description(), t.parametersSchema()))
                .toList();
    }
}
