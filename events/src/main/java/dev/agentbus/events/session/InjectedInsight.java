package dev.agentbus.events.session;

import dev.agentbus.events.insights.InsightCategory;

/**
 * One insight as it went into a turn's system prompt ({@code insights.injected.v1}): its id, so uses and votes reach
 * it, and its words at the time, so the prompt can be rendered again from the log alone.
 */
public record InjectedInsight(String id, InsightCategory category, String text) {
}
