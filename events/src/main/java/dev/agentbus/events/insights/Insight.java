package dev.agentbus.events.insights;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One thing the memory-service learned about a user, as stored in their {@link InsightSet}.
 *
 * @param id          stable; derived from the command that created it, so applying that command again gives the same
 * @param confidence  the model's (or the agent's), 0 to 1; a person's edit sets it to 1
 * @param sources     every turn it was distilled from (the same text found again adds a source, not an insight)
 * @param lastSeenAt  when it was last distilled or edited: the start of its decay
 * @param uses        in how many turns it went into the system prompt ({@code insights.injected.v1})
 * @param upVotes     thumbs up on answers it shaped ({@code feedback.recorded.v1})
 * @param downVotes   thumbs down on answers it shaped
 * @param disabled    kept but never used or scored above 0
 * @param pinned      never decays
 * @param isProtected {@code "protected"} in JSON: only a person may change or delete it; the agent's
 *                    {@code manage_memory} tool, refining and distillation leave it as it is (OS-Agent's protected
 *                    memory)
 * @param origin      who wrote it: {@link Origin#DISTILLED} (absent in older sets), {@link Origin#PERSON} or
 *                    {@link Origin#AGENT}; a rebuild replaces only the distilled ones
 */
public record Insight(String id, InsightCategory category, String text, double confidence,
                      List<InsightSource> sources, Instant createdAt, Instant lastSeenAt, long uses, long upVotes,
                      long downVotes, boolean disabled, boolean pinned,
                      @JsonProperty("protected") boolean isProtected, Origin origin) {
    /** The longest text an insight may have, from the model or from a person. */
    public static final int MAX_TEXT_CHARS = 500;

    public enum Origin { DISTILLED, PERSON, AGENT }

    public Insight {
        sources = sources == null ? List.of() : List.copyOf(sources);
        origin = origin == null ? Origin.DISTILLED : origin;
    }

    /** A distilled insight, as the distiller first records it. */
    public static Insight distilled(String id, InsightCategory category, String text, double confidence,
                                    InsightSource source, Instant now) {
        return new Insight(id, category, text, confidence, List.of(source), now, now, 0, 0, 0, false, false, false,
                Origin.DISTILLED);
    }

    /** What the agent confidently states about the user is still a guess next to what the person says (1). */
    public static final double AGENT_CONFIDENCE = 0.9;

    /**
     * What makes two insights the same fact: the category and the words once case, spacing and a final full stop
     * are ignored. Distillation, a rebuild and the agent's {@code manage_memory} all use it, so none of them doubles
     * an insight another wrote.
     */
    public static String factKey(InsightCategory category, String text) {
        String words = text.strip().replaceAll("\\s+", " ").replaceAll("[.!]+$", "").toLowerCase(Locale.ROOT);
        return category.wireName() + "/" + words;
    }

    public String factKey() {
        return factKey(category, text);
    }

    /** An insight the agent wrote with its {@code manage_memory} tool. */
    public static Insight byAgent(String id, InsightCategory category, String text, InsightSource source, Instant now) {
        return new Insight(id, category, text, AGENT_CONFIDENCE, List.of(source), now, now, 0, 0, 0, false, false,
                false, Origin.AGENT);
    }

    /**
     * New words from a person or the agent: fresh again, and theirs from now on, so a rebuild (which replaces only
     * distilled insights) keeps them.
     */
    public Insight rewrittenBy(Origin by, String newText, double newConfidence, Instant now) {
        return new Insight(id, category, newText, newConfidence, sources, createdAt, now, uses, upVotes, downVotes,
                disabled, pinned, isProtected, by);
    }

    public Insight withCategory(InsightCategory newCategory) {
        return new Insight(id, newCategory, text, confidence, sources, createdAt, lastSeenAt, uses, upVotes, downVotes,
                disabled, pinned, isProtected, origin);
    }

    public Insight withFlags(boolean newDisabled, boolean newPinned) {
        return new Insight(id, category, text, confidence, sources, createdAt, lastSeenAt, uses, upVotes, downVotes,
                newDisabled, newPinned, isProtected, origin);
    }

    public Insight withProtected(boolean newProtected) {
        return new Insight(id, category, text, confidence, sources, createdAt, lastSeenAt, uses, upVotes, downVotes,
                disabled, pinned, newProtected, origin);
    }

    /** Used in one more turn's prompt. */
    public Insight used() {
        return new Insight(id, category, text, confidence, sources, createdAt, lastSeenAt, uses + 1, upVotes,
                downVotes, disabled, pinned, isProtected, origin);
    }

    /** Votes added (or, negative, taken back), never below zero. */
    public Insight voted(long up, long down) {
        return new Insight(id, category, text, confidence, sources, createdAt, lastSeenAt, uses,
                Math.max(0, upVotes + up), Math.max(0, downVotes + down), disabled, pinned, isProtected, origin);
    }

    /**
     * What a rebuild carries over from an older insight of the same fact: its id (so uses and votes recorded against
     * it in the log still find it), its uses, votes and flags.
     */
    public Insight carryingOver(Insight older) {
        return new Insight(older.id, category, text, confidence, sources, createdAt, lastSeenAt, older.uses, older.upVotes,
                older.downVotes, older.disabled, older.pinned, older.isProtected, origin);
    }

    /**
     * Seen again in another turn: one more source, fresh again, as sure as the surer of the two. A protected insight
     * stays exactly as the person left it and only gains the source.
     */
    public Insight seenAgain(InsightSource source, double otherConfidence, Instant now) {
        if (isProtected) {
            return plusSource(source);
        }
        List<InsightSource> more = new ArrayList<>(sources);
        more.add(source);
        return new Insight(id, category, text, Math.max(confidence, otherConfidence), more, createdAt, now, uses,
                upVotes, downVotes, disabled, pinned, isProtected, origin);
    }

    /** One more turn (or session event) it came from, changing nothing else: how a protected insight is seen again. */
    public Insight plusSource(InsightSource source) {
        List<InsightSource> more = new ArrayList<>(sources);
        more.add(source);
        return withSources(more);
    }

    /** Several insights merged into this one keep all their sources. */
    public Insight withSources(List<InsightSource> all) {
        return new Insight(id, category, text, confidence, all, createdAt, lastSeenAt, uses, upVotes, downVotes,
                disabled, pinned, isProtected, origin);
    }
}
