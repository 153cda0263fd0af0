package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Given events / when an input / then events, for the decider; no Kafka. Ids come out as id-1, id-2, … so tests
 * can name them.
 */
final class DeciderFixture {
    static final String SESSION = "s-1";
    static final String USER = "alice";
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final Duration APPROVAL_TIMEOUT = Duration.ofMinutes(30);

    private final SessionDecider decider = new SessionDecider();
    private final List<EventEnvelope> given = new ArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private MemoryDocument memory = MemoryDocument.empty(USER);
    private int maxIterations = 10;
    private PermissionMode defaultMode = PermissionMode.AUTO;
    private LoopLimits loopLimits = LoopLimits.DEFAULTS;
    private ContextLimits contextLimits = ContextLimits.DEFAULTS;
    private ModelChoice modelDefaults = ModelChoice.NONE;
    private InsightSet insights;
    private InjectionLimits injection = InjectionLimits.DEFAULTS;
    private SubAgentLimits subAgents = SubAgentLimits.DEFAULTS;

    static DeciderFixture given(SessionEvent... events) {
        DeciderFixture f = new DeciderFixture();
        for (SessionEvent e : events) {
            f.given.add(new EventEnvelope("e" + (f.given.size() + 1), SESSION, f.given.size() + 1, NOW, "in", USER, e));
        }
        return f;
    }

    /** More given events, after the ones already there. */
    DeciderFixture and(SessionEvent... events) {
        for (SessionEvent e : events) {
            given.add(new EventEnvelope("e" + (given.size() + 1), SESSION, given.size() + 1, NOW, "in", USER, e));
        }
        return this;
    }

    DeciderFixture withMemory(String content, long version) {
        memory = new MemoryDocument(USER, content, version, NOW, "c");
        return this;
    }

    /** The installation's default permission mode, for sessions created without one. */
    DeciderFixture withDefaultMode(PermissionMode mode) {
        defaultMode = mode;
        return this;
    }

    /** The decision as another user (say, one the session is shared with) sent the input. */
    Decision whenBy(String user, SessionInput input) {
        return decider.decide(state(), new InputEnvelope("input-1", SESSION, NOW, null, user, input),
                new DecisionContext(NOW, maxIterations, memory, () -> "id-" + ids.incrementAndGet(), defaultMode,
                        APPROVAL_TIMEOUT, loopLimits, contextLimits, modelDefaults, subAgents, insights, injection));
    }

    DeciderFixture withLoopLimits(LoopLimits limits) {
        loopLimits = limits;
        return this;
    }

    DeciderFixture withContextLimits(ContextLimits limits) {
        contextLimits = limits;
        return this;
    }

    /** The user's model settings over the installation's, as the engine passes them for the session's user. */
    DeciderFixture withModelDefaults(ModelChoice defaults) {
        modelDefaults = defaults;
        return this;
    }

    /** The user's insights as the engine reads them from {@code agentbus.user-insights}, and the injection limits. */
    DeciderFixture withInsights(InsightSet set, InjectionLimits limits) {
        insights = set;
        injection = limits;
        return this;
    }

    DeciderFixture withSubAgentLimits(SubAgentLimits limits) {
        subAgents = limits;
        return this;
    }

    DeciderFixture withMaxIterations(int max) {
        maxIterations = max;
        return this;
    }

    SessionState state() {
        return SessionFold.fold(SESSION, given);
    }

    Decision when(SessionInput input) {
        return decider.decide(state(), new InputEnvelope("input-1", SESSION, NOW, null, USER, input),
                new DecisionContext(NOW, maxIterations, memory, () -> "id-" + ids.incrementAndGet(), defaultMode,
                        APPROVAL_TIMEOUT, loopLimits, contextLimits, modelDefaults, subAgents, insights, injection));
    }
}
