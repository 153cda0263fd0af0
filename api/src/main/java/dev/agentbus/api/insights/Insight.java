package dev.agentbus.api.insights;

import java.time.Instant;
import java.util.List;

/**
 * One thing the memory-service learned about a user, as stored in their {@link InsightSet}.
 *
 * @param id         stable; derived from the command that created it, so applying that command again gives the same
 * @param confidence the model's, 0 to 1; a person's edit sets it to 1
 * @param sources    every turn it was distilled from (the same text found again adds a source, not an insight)
 * @param lastSeenAt when it was last distilled or edited: the start of its decay
 * @param uses       how often it went into a prompt (nothing injects insights yet, so 0 for now)
 * @param feedback   net votes of people on it (no route records them yet, so 0 for now)
 * @param disabled   kept but never used or scored above 0
 * @param pinned     never decays
 */
public record Insight(String id, InsightCategory category, String text, double confidence,
                      List<InsightSource> sources, Instant createdAt, Instant lastSeenAt, long uses, long feedback,
                      boolean disabled, boolean pinned) {
    /** The longest text an insight may have, from the model or from a person. */
    public static final int MAX_TEXT_CHARS = 500;

    public Insight {
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    public Insight withText(String newText, double newConfidence, Instant now) {
        return new Insight(id, category, newText, newConfidence, sources, createdAt, now, uses, feedback, disabled,
                pinned);
    }

    public Insight withFlags(boolean newDisabled, boolean newPinned) {
        return new Insight(id, category, text, confidence, sources, createdAt, lastSeenAt, uses, feedback,
                newDisabled, newPinned);
    }

    /** Seen again in another turn: one more source, fresh again, as sure as the surer of the two. */
    public Insight seenAgain(InsightSource source, double otherConfidence, Instant now) {
        List<InsightSource> more = new java.util.ArrayList<>(sources);
        more.add(source);
        return new Insight(id, category, text, Math.max(confidence, otherConfidence), more, createdAt, now, uses,
                feedback, disabled, pinned);
    }
}
