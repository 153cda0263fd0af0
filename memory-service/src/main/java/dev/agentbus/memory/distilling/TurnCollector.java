package dev.agentbus.memory.distilling;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps, per session, only the turn in progress (the person's messages and the model's answers), and hands it out
 * when it ends {@code COMPLETED}. Not a full fold: extraction reads one turn, and the memory-service reads every
 * session's log, so it keeps no more than that. Tool calls and results are left out: what a person is like shows in
 * what they ask and accept, and tool output is long and often secret-bearing. Pure apart from its own map.
 */
final class TurnCollector {
    private final Map<String, List<CompletedTurn.Line>> open = new HashMap<>();

    Optional<CompletedTurn> apply(EventEnvelope e) {
        switch (e.event()) {
            case SessionEvent.UserMessagePosted m ->
                    open.computeIfAbsent(e.sessionId(), s -> new ArrayList<>())
                            .add(new CompletedTurn.Line(CompletedTurn.Speaker.USER, e.seq(), m.text()));
            case SessionEvent.ModelCallCompleted c when c.content() != null && !c.content().isBlank() -> {
                List<CompletedTurn.Line> lines = open.get(e.sessionId());
                if (lines != null) {
                    lines.add(new CompletedTurn.Line(CompletedTurn.Speaker.ASSISTANT, e.seq(), c.content()));
                }
            }
            case SessionEvent.TurnEnded t -> {
                List<CompletedTurn.Line> lines = open.remove(e.sessionId());
                if (t.outcome() == TurnOutcome.COMPLETED && lines != null && !lines.isEmpty()) {
                    return Optional.of(new CompletedTurn(e.sessionId(), e.userId(), e.seq(), lines));
                }
            }
            // A fork's log starts with the source's state; its own turns are collected like any other.
            case SessionEvent.SessionForked f -> open.remove(e.sessionId());
            default -> {
                // Every other event says nothing the extraction reads.
            }
        }
        return Optional.empty();
    }

    void clear() {
        open.clear();
    }
}
