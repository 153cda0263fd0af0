package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.memory.MemoryDocument;
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
 * session nor its preset chooses (the user's settings over the installation's, {@code modelDefaults}), and how far a
 * session may delegate to sub-agents ({@code subAgents}).
 */
public record DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids,
                              PermissionMode defaultMode, Duration approvalTimeout, LoopLimits loopLimits,
                              ContextLimits contextLimits, ModelChoice modelDefaults, SubAgentLimits subAgents) {
    public DecisionContext {
        loopLimits = loopLimits == null ? LoopLimits.DEFAULTS : loopLimits;
        contextLimits = contextLimits == null ? ContextLimits.DEFAULTS : contextLimits;
        modelDefaults = modelDefaults == null ? ModelChoice.NONE : modelDefaults;
        subAgents = subAgents == null ? SubAgentLimits.DEFAULTS : subAgents;
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
