package dev.agentbus.orchestrator.deciding.remembering;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightScore;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.InjectedInsight;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses the insights for a turn's system prompt: the best by {@link InsightScore} now, ties by id so the choice
 * is the same every time, as many as fit the limits. An insight too long for what is left of the budget is passed
 * over for shorter ones after it. Disabled insights score 0 and are never chosen. Pure.
 */
public final class InsightSelection {
    private InsightSelection() {
    }

    public static List<InjectedInsight> choose(InsightSet set, Instant now, InjectionLimits limits) {
        if (set == null || limits.maxInsights() == 0) {
            return List.of();
        }
        record Scored(Insight insight, double score) {
        }
        List<Scored> ranked = set.insights().stream()
                .map(i -> new Scored(i, InsightScore.of(i, now)))
                .filter(s -> s.score() > 0 && s.score() >= limits.minScore())
                .sorted(Comparator.comparingDouble(Scored::score).reversed()
                        .thenComparing(s -> s.insight().id()))
                .toList();
        List<InjectedInsight> chosen = new ArrayList<>();
        int tokens = 0;
        for (Scored s : ranked) {
            if (chosen.size() == limits.maxInsights()) {
                break;
            }
            int cost = tokens(s.insight().text());
            if (tokens + cost > limits.budgetTokens()) {
                continue;
            }
            tokens += cost;
            chosen.add(new InjectedInsight(s.insight().id(), s.insight().category(), s.insight().text()));
        }
        return List.copyOf(chosen);
    }

    /** The line's tokens, estimated: four characters a token, plus the list marker and category. */
    static int tokens(String text) {
        return (text.length() + 3) / 4 + 4;
    }

    /** How the chosen insights read in the prompt: one line each, with their category. */
    public static String render(List<InjectedInsight> insights) {
        StringBuilder sb = new StringBuilder();
        for (InjectedInsight i : insights) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append("- ").append(i.text().strip()).append(" (").append(i.category().wireName()).append(')');
        }
        return sb.toString();
    }
}
