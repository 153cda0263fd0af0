package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCommand;

import java.util.List;

/** What the model's answer to an extraction prompt turned out to be. */
sealed interface Extraction {
    /**
     * A readable answer; {@code skipped} says why each unusable item was left out (unknown category, no text,
     * confidence outside 0..1), while the usable ones are kept.
     */
    record Parsed(List<InsightCommand.Extracted> insights, List<String> skipped) implements Extraction {
        public Parsed {
            insights = List.copyOf(insights);
            skipped = List.copyOf(skipped);
        }
    }

    /** Not the JSON object asked for: logged, and the turn is marked distilled with nothing learned. */
    record Malformed(String reason) implements Extraction {
    }
}
