package dev.agentbus.memory.distilling;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps, per session, only the turn in progress (the person's messages and the model's answers), and hands it out
 * when it ends {@code COMPLETED}. Not a full fold: extraction reads one turn, and the memory-service reads every
 * session's log, so it keeps no more than that. Tool calls and results are left out: what a person is like shows in
 * what they ask and accept, and tool output is long and often secret-bearing. An incognito session is never read:
 * once its {@code session.created.v1} says so, its events are dropped unseen. Nor is a turn in which a group member
 * the session is shared with spoke (the orchestrator withholds the owner's memory from it, {@code memory.attached.v1}
 * with version {@code WITHHELD}): what a member says must not become the owner's insights. Pure apart from its own
 * maps.
 */
final class TurnCollector {
    private final Map<String, List<CompletedTurn.Line>> open = new HashMap<>();
    /** Sessions created incognito (or forked from one): never read past their first event. */
    private final Set<String> incognito = new HashSet<>();
    /** Sessions whose open turn a member spoke in: that turn is dropped when it ends. */
    private final Set<String> withheld = new HashSet<>();

    Optional<CompletedTurn> apply(EventEnvelope e) {
        if (incognito.contains(e.sessionId())) {
            return Optional.empty();
        }
        switch (e.event()) {
            case SessionEvent.SessionCreated c when c.incognito() -> incognito.add(e.sessionId());
            case SessionEvent.SessionForked f when f.state() != null && f.state().context().incognito() -> {
                incognito.add(e.sessionId());
                open.remove(e.sessionId());
            }
            case SessionEvent.MemoryAttached m when m.withheld() -> withheld.add(e.sessionId());
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
                if (withheld.remove(e.sessionId())) {
                    return Optional.empty();
                }
                if (t.outcome() == TurnOutcome.COMPLETED && lines != null && !lines.isEmpty()) {
                    return Optional.of(new CompletedTurn(e.sessionId(), e.userId(), e.seq(), e.time(), lines));
                }
            }
            // A fork's log starts with the source's state; its own turns are collected like any other.
            case SessionEvent.SessionForked f -> {
                open.remove(e.sessionId());
                withheld.remove(e.sessionId());
            }
            default -> {
                // Every other event says nothing the extraction reads.
            }
        }
        return Optional.empty();
    }

    void clear() {
        open.clear();
        incognito.clear();
        withheld.clear();
    }
}
