package dev.agentbus.memory.keepinginsights;

import dev.agentbus.api.insights.Insight;
import dev.agentbus.api.insights.InsightCommand;
import dev.agentbus.api.insights.InsightScore;
import dev.agentbus.api.insights.InsightSet;
import dev.agentbus.api.insights.InsightSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The rule for changing an insight set: each command gives the next version. Pure, so applying a command again
 * after a crash (its offset was not committed) gives exactly the same set, ids included.
 */
final class InsightBook {
    /** A user's set stays one Kafka record well below the broker's 1 MB limit. */
    static final int MAX_INSIGHTS = 500;

    private InsightBook() {
    }

    static InsightSet apply(InsightSet current, InsightCommand command, Instant now) {
        List<Insight> insights = new ArrayList<>(current.insights());
        Map<String, Long> distilled = new HashMap<>(current.distilledUpTo());
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
        }
        return new InsightSet(command.userId(), current.version() + 1, capped(insights, now), distilled, now,
                command.commandId());
    }

    private static void add(List<Insight> insights, InsightCommand.RecordDistillation d, Instant now) {
        InsightSource source = new InsightSource(d.sessionId(), d.seqs());
        for (int n = 0; n < d.insights().size(); n++) {
            InsightCommand.Extracted x = d.insights().get(n);
            int same = indexOfSame(insights, x);
            if (same >= 0) {
                insights.set(same, insights.get(same).seenAgain(source, x.confidence(), now));
            } else {
                String id = UUID.nameUUIDFromBytes((d.commandId() + "/" + n).getBytes(StandardCharsets.UTF_8))
                        .toString();
                insights.add(new Insight(id, x.category(), x.text(), x.confidence(), List.of(source), now, now, 0, 0,
                        false, false));
            }
        }
    }

    /** The same fact found again: same category, same words once case and spacing are ignored. */
    private static int indexOfSame(List<Insight> insights, InsightCommand.Extracted x) {
        String key = normalised(x.text());
        for (int i = 0; i < insights.size(); i++) {
            if (insights.get(i).category() == x.category() && normalised(insights.get(i).text()).equals(key)) {
                return i;
            }
        }
        return -1;
    }

    private static String normalised(String text) {
        return text.strip().replaceAll("\\s+", " ").replaceAll("[.!]+$", "").toLowerCase(Locale.ROOT);
    }

    private static Insight edit(Insight i, InsightCommand.EditInsight e, Instant now) {
        Insight edited = e.text() == null ? i : i.withText(e.text().strip(), 1.0, now);
        return edited.withFlags(e.disabled() == null ? i.disabled() : e.disabled(),
                e.pinned() == null ? i.pinned() : e.pinned());
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
