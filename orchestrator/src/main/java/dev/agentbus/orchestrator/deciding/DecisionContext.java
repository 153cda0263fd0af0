package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.memory.MemoryDocument;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * Everything outside the state a decision may depend on, passed in so the decider stays a pure function:
 * the clock, limits, the user's current memory document and an id source.
 */
public record DecisionContext(Instant now, int maxIterations, MemoryDocument memory, Supplier<String> ids) {
}
