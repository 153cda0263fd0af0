/**
 * The gateway's answers about memory insights ({@link dev.agentbus.api.insights.InsightList},
 * {@link dev.agentbus.api.insights.InsightView}, {@link dev.agentbus.api.insights.MemoryRebuildStatus}). The stored
 * records and the scoring live in {@code dev.agentbus.events.insights} (see docs/memory.md, "Where insights live").
 */
package dev.agentbus.api.insights;
