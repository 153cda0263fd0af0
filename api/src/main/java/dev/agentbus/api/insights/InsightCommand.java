package dev.agentbus.api.insights;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.List;

/**
 * Requests to change a user's insight set, on {@code agentbus.insight-commands}, keyed by user id. The gateway writes
 * a person's edits; the memory-service's distiller writes what it extracted from a turn. Only the memory-service's
 * insight keeper reads them, and it is the single writer of {@code agentbus.user-insights}: edits and distillations
 * are applied one after another, so neither overwrites the other.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = InsightCommand.RecordDistillation.class, name = "insights.distilled.v1"),
        @JsonSubTypes.Type(value = InsightCommand.EditInsight.class, name = "insight.edit.v1"),
        @JsonSubTypes.Type(value = InsightCommand.DeleteInsight.class, name = "insight.delete.v1"),
        @JsonSubTypes.Type(value = InsightCommand.ClearInsights.class, name = "insights.clear.v1")})
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
                       Boolean pinned) implements InsightCommand {
    }

    record DeleteInsight(String commandId, String userId, String insightId) implements InsightCommand {
    }

    record ClearInsights(String commandId, String userId) implements InsightCommand {
    }
}
