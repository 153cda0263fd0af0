package dev.agentbus.testkit.model;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One successful answer of the {@link ScriptedModelServer}. Immutable; the {@code with…} methods return
 * changed copies, so a test can write {@code ScriptedReply.text("hi").withDelay(Duration.ofSeconds(1))}.
 *
 * @param content       the assistant text ({@code null} or empty: no content, e.g. a pure tool-call reply)
 * @param reasoning     sent as {@code reasoning_content}, the field DeepSeek, vLLM, LM Studio and others use
 *                      for a reasoning model's thoughts; {@code null} for none
 * @param toolCalls     the tool calls the reply asks for (finish reason {@code tool_calls} when non-empty)
 * @param contentChunks when streaming, the exact content deltas to send instead of slicing {@code content};
 *                      lets a test put a chunk boundary in the middle of {@code <think>} on purpose
 * @param delay         wait this long before answering (to test time-outs and concurrency)
 * @param chunkDelay    when streaming, wait this long between chunks (to watch deltas arrive live)
 * @param usage         the usage to report; {@code null} computes it from the request and reply sizes
 * @param finishReason  overrides the finish reason ({@code null}: "tool_calls" if there are calls, else "stop")
 */
public record ScriptedReply(
        String content,
        String reasoning,
        List<ScriptedToolCall> toolCalls,
        List<String> contentChunks,
        Duration delay,
        Duration chunkDelay,
        ScriptedUsage usage,
        String finishReason) {

    public ScriptedReply {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        contentChunks = contentChunks == null ? null : List.copyOf(contentChunks);
        delay = delay == null ? Duration.ZERO : delay;
        chunkDelay = chunkDelay == null ? Duration.ZERO : chunkDelay;
    }

    public static ScriptedReply text(String content) {
        return new ScriptedReply(Objects.requireNonNull(content, "content"), null, List.of(), null, null, null, null, null);
    }

    /** Text streamed in exactly these deltas (non-streaming requests get the concatenation). */
    public static ScriptedReply textInChunks(String... chunks) {
        return new ScriptedReply(String.join("", chunks), null, List.of(), List.of(chunks), null, null, null, null);
    }

    public static ScriptedReply toolCalls(List<ScriptedToolCall> calls) {
        return new ScriptedReply(null, null, calls, null, null, null, null, null);
    }

    public static ScriptedReply reasoningAndText(String reasoning, String content) {
        return new ScriptedReply(content, reasoning, List.of(), null, null, null, null, null);
    }

    public ScriptedReply withContent(String newContent) {
        return new ScriptedReply(newContent, reasoning, toolCalls, null, delay, chunkDelay, usage, finishReason);
    }

    public ScriptedReply withReasoning(String newReasoning) {
        return new ScriptedReply(content, newReasoning, toolCalls, contentChunks, delay, chunkDelay, usage, finishReason);
    }

    public ScriptedReply withToolCalls(List<ScriptedToolCall> calls) {
        return new ScriptedReply(content, reasoning, calls, contentChunks, delay, chunkDelay, usage, finishReason);
    }

    public ScriptedReply withDelay(Duration newDelay) {
        return new ScriptedReply(content, reasoning, toolCalls, contentChunks, newDelay, chunkDelay, usage, finishReason);
    }

    public ScriptedReply withChunkDelay(Duration newChunkDelay) {
        return new ScriptedReply(content, reasoning, toolCalls, contentChunks, delay, newChunkDelay, usage, finishReason);
    }

    public ScriptedReply withUsage(ScriptedUsage newUsage) {
        return new ScriptedReply(content, reasoning, toolCalls, contentChunks, delay, chunkDelay, newUsage, finishReason);
    }

    public ScriptedReply withFinishReason(String newFinishReason) {
        return new ScriptedReply(content, reasoning, toolCalls, contentChunks, delay, chunkDelay, usage, newFinishReason);
    }

    String effectiveFinishReason() {
        if (finishReason != null) {
            return finishReason;
        }
        return toolCalls.isEmpty() ? "stop" : "tool_calls";
    }
}
