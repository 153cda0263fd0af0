package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCommand.ApplyAgentChange;
import dev.agentbus.events.insights.InsightSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How the agent's {@code manage_memory} change applies to a user's insights. The orchestrator checked it against
 * the insights as it last read them; this checks again against the current ones, since a person may have protected
 * or deleted an insight in between: the person wins, and the change is dropped. Pure.
 *
 * <ul>
 *   <li>add: a new insight of origin {@code agent}, sourced from the session event that asked for it; the same fact
 *       already there (any origin) gets the source instead, and is fresh again unless protected;</li>
 *   <li>update: new words (and category, when given) for an unprotected insight, which becomes the agent's, so a
 *       rebuild keeps the correction;</li>
 *   <li>delete: an unprotected insight goes.</li>
 * </ul>
 */
final class AgentChanges {
    private AgentChanges() {
    }

    static List<Insight> apply(List<Insight> current, ApplyAgentChange change, Instant now) {
        List<Insight> insights = new ArrayList<>(current);
        InsightSource source = new InsightSource(change.sessionId(), List.of(change.seq()));
        int target = indexOf(insights, change.insightId());
        boolean changeable = target >= 0 && !insights.get(target).isProtected();
        switch (change.action()) {
            case ADD -> {
                if (target >= 0 || change.category() == null || blank(change.text())) {
                    return current;
                }
                int same = InsightBook.indexOfSame(insights, change.category(), change.text());
                if (same < 0) {
                    insights.add(Insight.byAgent(change.insightId(), change.category(), change.text().strip(),
                            source, now));
                } else {
                    insights.set(same, insights.get(same).seenAgain(source, Insight.AGENT_CONFIDENCE, now));
                }
            }
            case UPDATE -> {
                if (!changeable || blank(change.text())) {
                    return current;
                }
                Insight old = insights.get(target);
                Insight rewritten = old.rewrittenBy(Insight.Origin.AGENT, change.text().strip(),
                        Insight.AGENT_CONFIDENCE, now).plusSource(source);
                insights.set(target, change.category() == null ? rewritten : rewritten.withCategory(change.category()));
            }
            case DELETE -> {
                if (!changeable) {
                    return current;
                }
                insights.remove(target);
            }
            // Reading is never recorded as a change; a command that says so anyway changes nothing.
            case LIST -> {
                return current;
            }
        }
        return insights;
    }

    private static int indexOf(List<Insight> insights, String id) {
        for (int i = 0; i < insights.size(); i++) {
            if (insights.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
