package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.modelclient.ToolCall;
import dev.agentbus.modelclient.ToolDefinition;
import dev.agentbus.orchestrator.deciding.Compaction;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentTools;
import dev.agentbus.orchestrator.deciding.remembering.OwnerOnlyMemory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns folded session state into the messages of the next model call. Pure: the same state and time give the
 * same prompt, so any model call can be explained from the log.
 *
 * <p>The system prompt's parts are {@link SystemPrompt}'s. Reasoning is never sent back to the model. Each assistant message with tool calls is followed directly by
 * one result per call, in the order the model asked, because OpenAI-compatible servers reject a tool call without
 * an answer; a call whose result never came (the turn was cancelled first) gets a placeholder saying so. In a turn
 * that runs without the owner's memory (a group member's), earlier {@code manage_memory} calls lose their arguments
 * and results too.
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
        return build(state, now, state.lastModel());
    }

    /**
     * The prompt for {@code model} (what {@code {model}} says). Once the conversation was compacted, the messages the
     * summary stands for are left out, except the pinned one ({@link Compaction}), and the summary takes their place.
     */
    public List<ChatMessage> build(SessionState state, Instant now, String model) {
        return build(state, now, model, u -> List.of());
    }

    /**
     * As {@link #build(SessionState, Instant, String)}, with the images of each user message that has some, as
     * {@code images} gives them (the model-call effect reads them beforehand; this stays pure).
     */
    public List<ChatMessage> build(SessionState state, Instant now, String model,
                                   Function<Message.User, List<ChatMessage.Image>> images) {
        List<ChatMessage> out = new ArrayList<>();
        out.add(new ChatMessage.System(SystemPrompt.build(systemPrompt, state, now, model)));
        List<Message> messages = state.messages();
        ContextState.Summary summary = state.context().summary();
        int summarised = state.context().messagesSummarised();
        int pinned = Compaction.pinnedIndex(messages);
        boolean summaryPlaced = summary == null;
        for (int i = 0; i < messages.size(); i++) {
            if (i < summarised && i != pinned) {
                continue;
            }
            if (!summaryPlaced && i >= summarised) {
                out.add(summaryMessage(summary));
                summaryPlaced = true;
            }
            switch (messages.get(i)) {
                case Message.User u -> out.add(new ChatMessage.User(u.text(),
                        u.imagePaths().isEmpty() ? List.of() : images.apply(u)));
                case Message.Notice n -> out.add(new ChatMessage.User("[agentbus] " + n.text()));
                case Message.Assistant a -> {
                    out.add(new ChatMessage.Assistant(a.content(), a.toolCalls().stream()
                            .map(c -> new ToolCall(c.id(), c.name(), ownerOnly(state, c)
                                    ? "{}" : c.arguments())).toList()));
                    for (ToolCallSpec call : a.toolCalls()) {
                        ToolCallView view = state.toolCalls().get(call.id());
                        out.add(new ChatMessage.ToolResult(call.id(), ownerOnly(state, call)
                                && view != null && Boolean.TRUE.equals(view.ok()) ? HIDDEN_MEMORY : resultOf(view)));
                    }
                }
                case Message.Tool t -> {
                    // Already placed right after the assistant message that asked for it.
                }
            }
        }
        if (!summaryPlaced) {
            out.add(summaryMessage(summary));
        }
        return out;
    }

    static final String HIDDEN_MEMORY = "[agentbus] Not shown: this manage_memory call read or changed the session "
            + "owner's memory, which a turn started by a group member does not see.";

    /**
     * Whether the call is an earlier {@code manage_memory} of the owner's, in a turn that runs without the owner's
     * memory ({@link OwnerOnlyMemory}): its arguments and result name the owner's insights, so the model does not get
     * them from the conversation either.
     */
    private static boolean ownerOnly(SessionState state, ToolCallSpec call) {
        return OwnerOnlyMemory.withheld(state) && ToolCatalog.MANAGE_MEMORY.equals(call.name());
    }

    private static ChatMessage summaryMessage(ContextState.Summary summary) {
        return new ChatMessage.User("[agentbus] The earlier part of this conversation was summarised to save "
                + "context. Summary of it:\n" + summary.text());
    }

    private static String resultOf(ToolCallView view) {
        if (view == null || view.status() != ToolCallView.Status.COMPLETED) {
            return "No result: the turn ended before this call finished.";
        }
        return view.resultForModel();
    }

    /** About as many characters as the tools take in a request: for estimating a prompt's tokens. */
    public static long toolsJsonLength() {
        return TOOLS_JSON_LENGTH;
    }

    private static final long TOOLS_JSON_LENGTH = ToolCatalog.TOOLS.stream()
            .mapToLong(t -> t.name().length() + t.description().length() + t.parametersSchema().length() + 40).sum();

    /** The built-in tools. */
    public static List<ToolDefinition> tools() {
        return ToolCatalog.TOOLS.stream()
                .map(t -> new ToolDefinition(t.name(), t.description(), t.parametersSchema()))
                .toList();
    }

    /**
     * The tools this session's model is offered: the built-in ones, then the tools of its live MCP servers
     * ({@code mcp__…}); for a sub-agent only its own ({@link SubAgentTools}).
     */
    public static List<ToolDefinition> tools(SessionState state) {
        return dev.agentbus.orchestrator.deciding.mcp.McpTools.offered(state).stream()
                .filter(t -> SubAgentTools.offered(state, t))
                .map(t -> new ToolDefinition(t.name(), t.description(), t.parametersSchema()))
                .toList();
    }
}
