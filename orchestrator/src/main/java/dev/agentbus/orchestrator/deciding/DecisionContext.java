package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Everything outside the state a decision may depend on, passed in so the decider stays a pure function:
 * the clock, limits, the user's current memory document, an id source, the permission mode a session gets when its
 * creator asks for none, how long an approval waits for a person before it counts as denied, the loop guards'
 * limits, when to compact the conversation, and the model and sampling the session's user gets when neither the
 * session nor its preset chooses (the user's settings over the installation's, {@code modelDefaults}), how far a
 * session may delegate to sub-agents ({@code subAgents}), and the user's insights with the limits of how many go
 * into a prompt ({@code insights} null: none).
 */
public record DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                              PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits,
                              ContextLimits contextLimits, ModelChoice modelDefaults, SubAgentLimits subAgents,
                              InsightSet insights, InjectionLimits injection) {
    public DecisionContext {
        loopLimits = loopLimits == null ? LoopLimits.DEFAULTS : loopLimits;
        contextLimits = contextLimits == null ? ContextLimits.DEFAULTS : contextLimits;
        modelDefaults = modelDefaults == null ? ModelChoice.NONE : modelDefaults;
        subAgents = subAgents == null ? SubAgentLimits.DEFAULTS : subAgents;
        injection = injection == null ? InjectionLimits.DEFAULTS : injection;
    }

    /** Without insights: none are injected. */
    public DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                           PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits,
                           ContextLimits contextLimits, ModelChoice modelDefaults, SubAgentLimits subAgents) {
        this(now, maxIterations, memory, ids, defaultMode, approvalTimeout, loopLimits, contextLimits, modelDefaults,
                subAgents, null, null);
    }

    /** With the default sub-agent limits ({@link SubAgentLimits#DEFAULTS}). */
    public DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                           PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits,
                           ContextLimits contextLimits, ModelChoice modelDefaults) {
        this(now, maxIterations, memory, ids, defaultMode, approvalTimeout, loopLimits, contextLimits, modelDefaults,
                SubAgentLimits.DEFAULTS);
    }

    public DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                           PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits,
                           ContextLimits contextLimits) {
        this(now, maxIterations, memory, ids, defaultMode, approvalTimeout, loopLimits, contextLimits,
                ModelChoice.NONE);
    }

    public DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                           PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits) {
        this(now, maxIterations, memory, ids, defaultMode, approvalTimeout, loopLimits, ContextLimits.DEFAULTS);
    }
}
