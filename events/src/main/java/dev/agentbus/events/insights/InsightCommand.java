package dev.agentbus.events.insights;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.List;
import java.util.Map;

/**
 * Requests to change a user's insight set, on {@code agentbus.insight-commands}, keyed by user id. The gateway writes
 * a person's edits; the memory-service writes what it extracted from a turn, the uses and votes it read on the
 * session log, a refinement and a rebuild. Only the memory-service's insight keeper applies them, and it is the
 * single writer of {@code agentbus.user-insights}: all are applied one after another, so none overwrites another.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = InsightCommand.RecordDistillation.class, name = "insights.distilled.v1"),
        @JsonSubTypes.Type(value = InsightCommand.EditInsight.class, name = "insight.edit.v1"),
        @JsonSubTypes.Type(value = InsightCommand.DeleteInsight.class, name = "insight.delete.v1"),
        @JsonSubTypes.Type(value = InsightCommand.ClearInsights.class, name = "insights.clear.v1"),
        @JsonSubTypes.Type(value = InsightCommand.RecordUse.class, name = "insights.used.v1"),
        @JsonSubTypes.Type(value = InsightCommand.RecordFeedback.class, name = "insights.voted.v1"),
        @JsonSubTypes.Type(value = InsightCommand.ReplaceDistilled.class, name = "insights.rebuilt.v1"),
        @JsonSubTypes.Type(value = InsightCommand.ApplyRefinement.class, name = "insights.refined.v1"),
        @JsonSubTypes.Type(value = InsightCommand.RequestRebuild.class, name = "insights.rebuild_requested.v1"),
        @JsonSubTypes.Type(value = InsightCommand.RequestRefinement.class, name = "insights.refine_requested.v1"),
        @JsonSubTypes.Type(value = InsightCommand.ApplyAgentChange.class, name = "insight.agent_changed.v1")})
public sealed interface InsightCommand {
    String commandId();

    String userId();

    /** What the model said about one completed turn; {@code insights} is empty when its answer was unusable. */
    record RecordDistillation(String commandId, String userId, String sessionId, long turnEndSeq, List<Long> seqs,
                              List<Extracted> insights) implements InsightCommand {
        public RecordDistillation {
            seqs = seqs == null ? List.of() : List.copyOf(seqs);
            insights = insights == null ? List.of() : List.copyOf(insights);
        }
    }

    /** One insight as the model stated it, checked. */
    record Extracted(InsightCategory category, String text, double confidence) {
    }

    /** A person's change to one insight; a null field is left as it is. */
    record EditInsight(String commandId, String userId, String insightId, String text, Boolean disabled,
                       Boolean pinned, @JsonProperty("protected") Boolean isProtected) implements InsightCommand {
        public EditInsight(String commandId, String userId, String insightId, String text, Boolean disabled,
                           Boolean pinned) {
            this(commandId, userId, insightId, text, disabled, pinned, null);
        }
    }

    record DeleteInsight(String commandId, String userId, String insightId) implements InsightCommand {
    }

    record ClearInsights(String commandId, String userId) implements InsightCommand {
    }

    /**
     * These insights went into the prompt of the turn whose {@code insights.injected.v1} has {@code seq} in
     * {@code sessionId}: each is used once more.
     */
    record RecordUse(String commandId, String userId, String sessionId, long seq, List<String> insightIds)
            implements InsightCommand {
        public RecordUse {
            insightIds = insightIds == null ? List.of() : List.copyOf(insightIds);
        }
    }

    /**
     * A person voted on an answer ({@code feedback.recorded.v1} at {@code seq}); the insights that shaped it get
     * {@code up}/{@code down} more votes. A second vote on the same answer takes the first one back (-1).
     */
    record RecordFeedback(String commandId, String userId, String sessionId, long seq, List<String> insightIds,
                          int up, int down) implements InsightCommand {
        public RecordFeedback {
            insightIds = insightIds == null ? List.of() : List.copyOf(insightIds);
        }
    }

    /**
     * A rebuild's result: the distilled insights, made again from the whole log with today's extraction, replace the
     * old distilled ones in one version; insights a person or the agent wrote stay.
     */
    record ReplaceDistilled(String commandId, String userId, String rebuildId, List<Insight> insights,
                            Map<String, Long> distilledUpTo) implements InsightCommand {
        public ReplaceDistilled {
            insights = insights == null ? List.of() : List.copyOf(insights);
            distilledUpTo = distilledUpTo == null ? Map.of() : Map.copyOf(distilledUpTo);
        }
    }

    /**
     * An administrator asked to rebuild the insights of one user ({@code userId}) or of all ({@code userId}
     * {@link #ALL_USERS}) from the whole session log with today's extraction. The memory-service's rebuilder acts on
     * it and answers with one {@link ReplaceDistilled} per user; the keeper itself changes nothing for it.
     */
    record RequestRebuild(String commandId, String userId, String requestedBy) implements InsightCommand {
        public static final String ALL_USERS = "*";

        public boolean allUsers() {
            return ALL_USERS.equals(userId);
        }
    }

    /**
     * A person asked the model to merge their duplicate and conflicting insights. The memory-service's refiner asks
     * the model once, checks the answer, and answers with one {@link ApplyRefinement} whose id is
     * {@link #resultId()} (with no merges when the answer was unusable); the keeper changes nothing for the request.
     */
    record RequestRefinement(String commandId, String userId) implements InsightCommand {
        public String resultId() {
            return java.util.UUID.nameUUIDFromBytes((commandId + "/refined")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
        }
    }

    /**
     * A refinement the model proposed and the memory-service checked: each merge replaces the insights it names with
     * one. Applied only if every named insight is still there and unprotected; otherwise nothing changes.
     */
    record ApplyRefinement(String commandId, String userId, List<Merge> merges) implements InsightCommand {
        public ApplyRefinement {
            merges = merges == null ? List.of() : List.copyOf(merges);
        }
    }

    /**
     * The agent's {@code manage_memory} change, read from the session log ({@code memory.managed.v1} at {@code seq}
     * in {@code sessionId}): add the insight {@code insightId}, rewrite it, or delete it. Counted once per event like
     * a use or a vote ({@link InsightSet#counted}); a protected insight, or one no longer there, is left as it is.
     */
    record ApplyAgentChange(String commandId, String userId, String sessionId, long seq, MemoryAction action,
                            String insightId, InsightCategory category, String text) implements InsightCommand {
    }

    /** Insights {@code replaces} become one: this category and text. */
    record Merge(List<String> replaces, InsightCategory category, String text, double confidence) {
        public Merge {
            replaces = replaces == null ? List.of() : List.copyOf(replaces);
        }
    }
}
