package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightScore;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The rule for changing an insight set: each command gives the next version. Pure, so applying a command again
 * after a crash (its offset was not committed) gives exactly the same set, ids included.
 */
public final class InsightBook {
    /** A user's set stays one Kafka record well below the broker's 1 MB limit. */
    static final int MAX_INSIGHTS = 500;

    private InsightBook() {
    }

    public static InsightSet apply(InsightSet current, InsightCommand command, Instant now) {
        List<Insight> insights = new ArrayList<>(current.insights());
        // (reassigned by a rebuild and a refinement, which replace the list as a whole)
        Map<String, Long> distilled = new HashMap<>(current.distilledUpTo());
        Map<String, Long> counted = new HashMap<>(current.usageUpTo());
        String rebuild = current.lastRebuildId();
        switch (command) {
            case InsightCommand.RecordDistillation d -> {
                // A turn already distilled (the command was sent twice around a restart) changes nothing.
                if (!current.distilled(d.sessionId(), d.turnEndSeq())) {
                    add(insights, d, now);
                    distilled.merge(d.sessionId(), d.turnEndSeq(), Math::max);
                }
            }
            case InsightCommand.EditInsight e -> insights.replaceAll(i -> i.id().equals(e.insightId()) ? edit(i, e, now) : i);
            case InsightCommand.DeleteInsight del -> insights.removeIf(i -> i.id().equals(del.insightId()));
            // The turns stay marked as distilled: clearing must not bring the same insights back from old turns.
            case InsightCommand.ClearInsights c -> insights.clear();
            // Uses and votes are counted once per event of the session log: read again after a restart, they are
            // at or below the watermark and change nothing.
            case InsightCommand.RecordUse u -> {
                if (!current.counted(u.sessionId(), u.seq())) {
                    insights.replaceAll(i -> u.insightIds().contains(i.id()) ? i.used() : i);
                    counted.merge(u.sessionId(), u.seq(), Math::max);
                }
            }
            case InsightCommand.RecordFeedback f -> {
                if (!current.counted(f.sessionId(), f.seq())) {
                    insights.replaceAll(i -> f.insightIds().contains(i.id()) ? i.voted(f.up(), f.down()) : i);
                    counted.merge(f.sessionId(), f.seq(), Math::max);
                }
            }
            case InsightCommand.ReplaceDistilled r -> {
                insights = Rebuilding.replace(insights, r.insights());
                // A turn distilled into the old set while the rebuild read the log stays marked: never asked twice.
                r.distilledUpTo().forEach((session, seq) -> distilled.merge(session, seq, Math::max));
                rebuild = r.rebuildId();
            }
            // The rebuilder acts on it; the set is not touched (the keeper does not write for it, see InsightKeeper).
            case InsightCommand.RequestRebuild r -> {
            }
            case InsightCommand.RequestRefinement r -> {
            }
            case InsightCommand.ApplyRefinement r -> insights = Refining.apply(insights, r, now);
            // Counted against the same watermark as uses and votes: one change per memory.managed.v1, ever.
            case InsightCommand.ApplyAgentChange a -> {
                if (!current.counted(a.sessionId(), a.seq())) {
                    insights = AgentChanges.apply(insights, a, now);
                    counted.merge(a.sessionId(), a.seq(), Math::max);
                }
            }
        }
        return new InsightSet(command.userId(), current.version() + 1, capped(insights, now), distilled, now,
                command.commandId(), counted, rebuild);
    }

    private static void add(List<Insight> insights, InsightCommand.RecordDistillation d, Instant now) {
        InsightSource source = new InsightSource(d.sessionId(), d.seqs());
        for (int n = 0; n < d.insights().size(); n++) {
            InsightCommand.Extracted x = d.insights().get(n);
            int same = indexOfSame(insights, x.category(), x.text());
            if (same >= 0) {
                // (A protected insight stays exactly as the person left it; the new turn is still its source.)
                insights.set(same, insights.get(same).seenAgain(source, x.confidence(), now));
            } else {
                String id = UUID.nameUUIDFromBytes((d.commandId() + "/" + n).getBytes(StandardCharsets.UTF_8))
                        .toString();
                insights.add(Insight.distilled(id, x.category(), x.text(), x.confidence(), source, now));
            }
        }
    }

    /** The same fact found again ({@link Insight#factKey}). */
    static int indexOfSame(List<Insight> insights, InsightCategory category, String text) {
        String key = Insight.factKey(category, text);
        for (int i = 0; i < insights.size(); i++) {
            if (insights.get(i).factKey().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    private static Insight edit(Insight i, InsightCommand.EditInsight e, Instant now) {
        Insight edited = e.text() == null ? i : i.rewrittenBy(Insight.Origin.PERSON, e.text().strip(), 1.0, now);
        return edited.withFlags(e.disabled() == null ? i.disabled() : e.disabled(),
                        e.pinned() == null ? i.pinned() : e.pinned())
                .withProtected(e.isProtected() == null ? i.isProtected() : e.isProtected());
    }

    /** Over the limit, the insights worth least now go first; pinned ones only when nothing else is left. */
    private static List<Insight> capped(List<Insight> insights, Instant now) {
        if (insights.size() <= MAX_INSIGHTS) {
            return insights;
        }
        List<Insight> kept = new ArrayList<>(insights);
        kept.sort(Comparator.comparing(Insight::pinned).reversed()
                .thenComparing(Comparator.comparingDouble((Insight i) -> InsightScore.of(i, now)).reversed()));
        List<Insight> keep = kept.subList(0, MAX_INSIGHTS);
        return insights.stream().filter(keep::contains).toList();
    }
}
