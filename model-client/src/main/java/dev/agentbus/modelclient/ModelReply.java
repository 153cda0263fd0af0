package dev.agentbus.modelclient;

import java.util.List;

/**
 * One complete model answer.
 *
 * @param model        the model that answered, as the server named it
 * @param content      the visible answer, without any {@code <think>} block; empty (never null) when none
 * @param reasoning    the model's reasoning from {@code reasoning_content} and/or {@code <think>} blocks;
 *                     empty when none
 * @param toolCalls    the tool calls asked for, in order; empty when none
 * @param usage        token counts
 * @param finishReason the server's finish reason ("stop", "tool_calls", "length", …); empty when not sent
 */
public record ModelReply(
        String model,
        String content,
        String reasoning,
        List<ToolCall> toolCalls,
        TokenCounts usage,
        String finishReason) {

    public ModelReply {
        model = model == null ? "" : model;
        content = content == null ? "" : content;
        reasoning = reasoning == null ? "" : reasoning;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? TokenCounts.ZERO : usage;
        finishReason = finishReason == null ? "" : finishReason;
    }

    /**
     * Whether the model wants tools run. Decided by the calls themselves, not by finish reason, because
     * some servers (Ollama among them) say "stop" even when they return tool calls.
     */
    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
