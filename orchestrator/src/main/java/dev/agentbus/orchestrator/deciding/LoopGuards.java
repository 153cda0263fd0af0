package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.Json;
import dev.agentbus.events.session.LoopGuard;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.PlanningTools;
import dev.agentbus.events.state.ToolCallView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The loop guards as questions over the folded state of the running turn, so they are rules of the decider like any
 * other: what the model did since the person's last message is in the conversation and the tool calls' results.
 * Each question answers with the guard that sees a loop and what it saw, told to the model in the words it reads.
 */
final class LoopGuards {
    private LoopGuards() {
    }

    /** What a guard saw. */
    record Sighting(LoopGuard guard, String reason) {
    }

    /** Asked right after a model answer is recorded: does it repeat a call, or is it empty again? */
    static Optional<Sighting> afterAnswer(SessionState s, LoopLimits limits) {
        List<Message.Assistant> replies = repliesOfTurn(s);
        if (replies.isEmpty()) {
            return Optional.empty();
        }
        Message.Assistant last = replies.getLast();
        if (!last.toolCalls().isEmpty()) {
            if (limits.repeatedCalls() > 0) {
                List<ToolCallSpec> calls = replies.stream().flatMap(r -> r.toolCalls().stream()).toList();
                ToolCallSpec latest = calls.getLast();
                int run = 0;
                for (int i = calls.size() - 1; i >= 0 && same(calls.get(i), latest); i--) {
                    run++;
                }
                if (run >= limits.repeatedCalls()) {
                    return Optional.of(new Sighting(LoopGuard.REPEATED_CALL, "Loop guard: you called " + latest.name()
                            + " with the same arguments " + run + " times in a row. Its result will not change; "
                            + "try something else, or finish with an answer."));
                }
            }
            return Optional.empty();
        }
        if (limits.emptyReplies() > 0 && isEmpty(last)) {
            int run = 0;
            for (int i = replies.size() - 1; i >= 0 && isEmpty(replies.get(i)); i--) {
                run++;
            }
            if (run >= limits.emptyReplies()) {
                return Optional.of(new Sighting(LoopGuard.EMPTY_REPLIES, "Loop guard: your last " + run
                        + " replies were empty. Answer with text, or call a tool."));
            }
        }
        return Optional.empty();
    }

    /** Asked before the model is called again with the turn's results: failing tools, or no progress? */
    static List<Sighting> beforeNextCall(SessionState s, LoopLimits limits) {
        List<Message.Assistant> replies = repliesOfTurn(s);
        List<Sighting> seen = new ArrayList<>();
        if (limits.toolErrors() > 0) {
            List<ToolCallView> calls = replies.stream().flatMap(r -> r.toolCalls().stream())
                    .map(c -> s.toolCalls().get(c.id())).filter(Objects::nonNull).toList();
            int run = 0;
            for (int i = calls.size() - 1; i >= 0 && Boolean.FALSE.equals(calls.get(i).ok()); i--) {
                run++;
            }
            if (run >= limits.toolErrors()) {
                seen.add(new Sighting(LoopGuard.TOOL_ERRORS, "Loop guard: your last " + run
                        + " tool calls failed. Read the errors, change your approach, or finish with an answer that "
                        + "says what is in the way."));
            }
        }
        if (limits.noProgress() > 0) {
            int run = 0;
            Set<String> earlierTexts = new HashSet<>();
            List<Boolean> progress = new ArrayList<>();
            for (Message.Assistant r : replies) {
                String text = r.content() == null ? "" : r.content().strip();
                boolean newText = !text.isEmpty() && earlierTexts.add(text);
                boolean changed = r.toolCalls().stream().map(c -> s.toolCalls().get(c.id()))
                        .anyMatch(v -> v != null && Boolean.TRUE.equals(v.ok())
                                && (v.diff() != null || v.checkpoint() != null
                                || PlanningTools.reportsProgress(v.name())));
                progress.add(newText || changed);
            }
            for (int i = progress.size() - 1; i >= 0 && !progress.get(i); i--) {
                run++;
            }
            if (run >= limits.noProgress()) {
                seen.add(new Sighting(LoopGuard.NO_PROGRESS, "Loop guard: your last " + run
                        + " steps changed no file and said nothing new. Decide what is missing and do it, or finish "
                        + "with an answer."));
            }
        }
        return seen;
    }

    /** The model's replies since the person's last message: what this turn (or the part a person last steered) did. */
    private static List<Message.Assistant> repliesOfTurn(SessionState s) {
        List<Message> messages = s.messages();
        List<Message.Assistant> out = new ArrayList<>();
        for (int i = messages.size() - 1; i >= 0; i--) {
            Message m = messages.get(i);
            if (m instanceof Message.User) {
                break;
            }
            if (m instanceof Message.Assistant a) {
                out.add(a);
            }
        }
        return out.reversed();
    }

    private static boolean isEmpty(Message.Assistant a) {
        return a.toolCalls().isEmpty() && (a.content() == null || a.content().isBlank());
    }

    /** Same tool, same arguments; arguments compared as JSON, so spacing and key order do not hide a repeat. */
    private static boolean same(ToolCallSpec a, ToolCallSpec b) {
        return Objects.equals(a.name(), b.name()) && Objects.equals(json(a.arguments()), json(b.arguments()));
    }

    private static Object json(String arguments) {
        try {
            return Json.mapper().readTree(arguments == null || arguments.isBlank() ? "{}" : arguments);
        } catch (IOException e) {
            return arguments;
        }
    }
}
