package dev.agentbus.memory.readinginsightevents;

import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.Vote;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Turns the session log's {@code insights.injected.v1}, {@code feedback.recorded.v1} and {@code memory.managed.v1}
 * into insight commands: each injection uses its insights once more; each vote on an answer goes to the insights
 * injected into that answer's turn (the latest injection at or before the answer's seq), a second vote on the same
 * answer taking the first one back (lm-chat's feedback propagation: a thumbs on an answer reaches the memories that
 * shaped it); each change the agent made with {@code manage_memory} goes to the keeper as it was recorded.
 *
 * <p>One ledger for all three because the keeper counts them against one watermark per session
 * ({@code usageUpTo}): they must reach it in the session's log order, so one sender sends them all.
 *
 * <p>Pure apart from what it remembers per session: the injections (small: one list of ids per turn that had any)
 * and the votes given. Incognito sessions are skipped. Command ids follow from the session and seq, so the same
 * event read again after a restart gives the same command, which the keeper counts once.
 */
final class InsightEventLedger {
    private final Map<String, NavigableMap<Long, List<String>>> injections = new HashMap<>();
    private final Map<String, Map<Long, Vote>> votes = new HashMap<>();
    private final Set<String> incognito = new HashSet<>();

    Optional<InsightCommand> apply(EventEnvelope e) {
        if (incognito.contains(e.sessionId()) || e.userId() == null) {
            return Optional.empty();
        }
        switch (e.event()) {
            case SessionEvent.SessionCreated c when c.incognito() -> incognito.add(e.sessionId());
            case SessionEvent.SessionForked f when f.state() != null && f.state().context().incognito() ->
                    incognito.add(e.sessionId());
            case SessionEvent.InsightsInjected i -> {
                List<String> ids = i.insights().stream().map(InjectedInsight::id).toList();
                injections.computeIfAbsent(e.sessionId(), s -> new TreeMap<>()).put(e.seq(), ids);
                if (!ids.isEmpty()) {
                    return Optional.of(new InsightCommand.RecordUse(id(e, "use"), e.userId(), e.sessionId(), e.seq(),
                            ids));
                }
            }
            case SessionEvent.FeedbackGiven f -> {
                return feedback(e, f);
            }
            case SessionEvent.MemoryManaged m -> {
                return Optional.of(new InsightCommand.ApplyAgentChange(id(e, "agent"), e.userId(), e.sessionId(),
                        e.seq(), m.action(), m.insightId(), m.category(), m.text()));
            }
            default -> {
                // Nothing else changes an insight.
            }
        }
        return Optional.empty();
    }

    private Optional<InsightCommand> feedback(EventEnvelope e, SessionEvent.FeedbackGiven f) {
        var injected = injections.getOrDefault(e.sessionId(), new TreeMap<>()).floorEntry(f.seq());
        Vote before = votes.computeIfAbsent(e.sessionId(), s -> new HashMap<>()).put(f.seq(), f.vote());
        if (injected == null || injected.getValue().isEmpty() || before == f.vote()) {
            return Optional.empty();
        }
        int up = (f.vote() == Vote.UP ? 1 : 0) - (before == Vote.UP ? 1 : 0);
        int down = (f.vote() == Vote.DOWN ? 1 : 0) - (before == Vote.DOWN ? 1 : 0);
        return Optional.of(new InsightCommand.RecordFeedback(id(e, "vote"), e.userId(), e.sessionId(), e.seq(),
                injected.getValue(), up, down));
    }

    private static String id(EventEnvelope e, String kind) {
        return UUID.nameUUIDFromBytes((e.sessionId() + "@" + e.seq() + "/" + kind).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    void clear() {
        injections.clear();
        votes.clear();
        incognito.clear();
    }
}
