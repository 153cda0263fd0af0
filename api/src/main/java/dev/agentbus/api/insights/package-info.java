/**
 * Memory insights: what the memory-service distils from finished turns, how an insight is scored, and the
 * gateway's answers about them. The wire records of {@code agentbus.insight-commands} and
 * {@code agentbus.user-insights} ({@link dev.agentbus.events.insights.InsightCommand},
 * {@link dev.agentbus.events.insights.InsightSet}) live here rather than in {@code events} for now: the gateway writes
 * the commands and reads the sets, the memory-service applies them, and both already depend on this module
 * (see docs/memory.md, "Where insights live").
 */
package dev.agentbus.api.insights;
