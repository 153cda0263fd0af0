package dev.agentbus.gateway.openai;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.stream.StreamChunk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one agent turn looks like to an OpenAI chat client, built from the session's events and live deltas as they
 * come. Pure: it is given events and deltas and answers with what to send, so its rules are tested without a stack.
 *
 * <ul>
 *   <li>The model's text is the reply's {@code content}: streamed as its tokens arrive, and completed from
 *       {@code model_call.completed.v1} when deltas were missed (they are ephemeral) or never streamed. Deltas of a
 *       call that has completed come too late and are dropped. The texts of the turn's model calls are separated by
 *       a blank line.</li>
 *   <li>The agent's tool calls and their outcomes are {@code reasoning_content}, one line each: the client reads
 *       them, and never runs them (the agent already did).</li>
 *   <li>The turn's end finishes the reply: {@code stop}, or {@code length} when it hit the iteration cap; a model
 *       server failure or a rejected message is an error.</li>
 * </ul>
 * Not thread-safe: the caller serialises events and deltas. The WebSocket API's {@code chat} streams the same
 * transcript.
 */
public final class TurnTranscript {

    /** Something to send to the client. */
    public sealed interface Output {
        record Content(String text) implements Output {
        }

        record Reasoning(String text) implements Output {
        }

        /** The turn is over; {@code error} is set when it failed, with {@code finishReason} null. */
        record Finished(String finishReason, String error, OpenAiWire.Usage usage) implements Output {
        }
    }

    private final String inputId;
    private final Map<String, StringBuilder> streamedByCall = new HashMap<>();
    private final Set<String> completedCalls = new HashSet<>();
    private final Map<String, String> toolNames = new HashMap<>();
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private long promptTokens;
    private long completionTokens;
    private boolean contentOpen;
    /** True from our message's {@code user_message.posted.v1} on: what came before is not this turn. */
    private boolean begun;
    private boolean finished;

    /** @param inputId the id of the message input that started the turn, to recognise its rejection */
    TurnTranscript(String inputId) {
        this.inputId = inputId;
    }

    List<Output> onDelta(StreamChunk chunk) {
        if (!begun || finished || chunk.text() == null || chunk.text().isEmpty() || completedCalls.contains(chunk.ref())) {
            return List.of();
        }
        return switch (chunk.kind()) {
            case TOKEN -> {
                List<Output> out = new ArrayList<>();
                StringBuilder streamed = streamedByCall.computeIfAbsent(chunk.ref(), k -> new StringBuilder());
                if (streamed.isEmpty()) {
                    separateFromEarlierContent(out);
                }
                streamed.append(chunk.text());
                out.add(content(chunk.text()));
                yield out;
            }
            case REASONING -> List.of(reasoning(chunk.text()));
            case OUTPUT -> List.of(); // a command's live output; its result is summed up when it completes
        };
    }

    List<Output> onEvent(EventEnvelope envelope) {
        if (finished) {
            return List.of();
        }
        List<Output> out = new ArrayList<>();
        if (!begun) {
            // Someone else's message may have started a turn just before ours (which is then refused): wait for the
            // one our message caused.
            if (envelope.event() instanceof UserMessagePosted && inputId.equals(envelope.causationId())) {
                begun = true;
            } else if (envelope.event() instanceof InputRejected rejected && inputId.equals(rejected.inputId())) {
                finished = true;
                out.add(new Output.Finished(null, "the message was refused: " + rejected.reason(), usage()));
            }
            return out;
        }
        switch (envelope.event()) {
            case ModelCallCompleted done -> {
                completedCalls.add(done.requestId());
                promptTokens += done.usage().promptTokens();
                completionTokens += done.usage().completionTokens();
                String streamed = streamedByCall.getOrDefault(done.requestId(), new StringBuilder()).toString();
                String full = done.content() == null ? "" : done.content();
                if (full.startsWith(streamed) && full.length() > streamed.length()) {
                    if (streamed.isEmpty()) {
                        separateFromEarlierContent(out);
                    }
                    out.add(content(full.substring(streamed.length())));
                }
            }
            case ToolCallRequested call -> {
                toolNames.put(call.callId(), call.name());
                out.add(reasoning("→ " + call.name() + " " + call.arguments() + "\n"));
            }
            case ToolCallCompleted result -> {
                String name = toolNames.getOrDefault(result.callId(), "tool");
                String outcome = result.ok() ? "ok" : "failed: " + firstLine(result.error());
                out.add(reasoning("← " + name + " " + outcome + " (" + result.durationMs() + " ms)\n"));
            }
            case TurnEnded ended -> {
                finished = true;
                out.add(switch (ended.outcome()) {
                    case COMPLETED, CANCELLED -> new Output.Finished("stop", null, usage());
                    // Stopped by a limit rather than finished: the nearest of OpenAI's finish reasons.
                    case ITERATION_CAP, LOOP_DETECTED -> new Output.Finished("length", null, usage());
                    case ERROR -> new Output.Finished(null, ended.message() == null ? "the turn failed"
                            : ended.message(), usage());
                });
            }
            default -> {
                // the rest of the log (the message itself, model calls starting, memory) says nothing new here
            }
        }
        return out;
    }

    /** All content sent so far: the reply of a request that does not stream. */
    String content() {
        return content.toString();
    }

    /** All reasoning sent so far, or null when there was none. */
    String reasoning() {
        return reasoning.isEmpty() ? null : reasoning.toString();
    }

    private void separateFromEarlierContent(List<Output> out) {
        if (contentOpen) {
            out.add(content("\n\n"));
        }
    }

    private Output content(String text) {
        contentOpen = true;
        content.append(text);
        return new Output.Content(text);
    }

    private Output reasoning(String text) {
        reasoning.append(text);
        return new Output.Reasoning(text);
    }

    private OpenAiWire.Usage usage() {
        return new OpenAiWire.Usage(promptTokens, completionTokens, promptTokens + completionTokens);
    }

    private static String firstLine(String text) {
        if (text == null || text.isBlank()) {
            return "no reason given";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
