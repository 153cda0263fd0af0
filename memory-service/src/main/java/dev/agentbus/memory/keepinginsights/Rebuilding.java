package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a rebuild's insights replace the old ones, in one step: every distilled insight is replaced by the rebuilt set;
 * what a person or the agent wrote, and every protected insight, stays. A rebuilt insight that states the same fact
 * as an old one (same category, same words) keeps the old one's id and what people did to it: its uses, votes, pin
 * and disabling, so a rebuild does not undo a person's choices. No two insights of the result share an id. Pure.
 */
final class Rebuilding {
    private Rebuilding() {
    }

    static List<Insight> replace(List<Insight> old, List<Insight> rebuilt) {
        List<Insight> kept = new ArrayList<>();
        Map<String, Insight> oldDistilled = new HashMap<>();
        for (Insight i : old) {
            if (i.origin() != Insight.Origin.DISTILLED || i.isProtected()) {
                kept.add(i);
            } else {
                oldDistilled.putIfAbsent(i.factKey(), i);
            }
        }
        List<String> keptKeys = kept.stream().map(Insight::factKey).toList();
        java.util.Set<String> ids = new java.util.HashSet<>(kept.stream().map(Insight::id).toList());
        List<Insight> out = new ArrayList<>(kept);
        for (Insight i : rebuilt) {
            // The same fact as one that stays, or (defensively) an id already taken: the one that stays wins.
            if (keptKeys.contains(i.factKey()) || ids.contains(i.id())) {
                continue;
            }
            Insight before = oldDistilled.get(i.factKey());
            Insight next = before == null ? i : i.carryingOver(before);
            if (ids.add(next.id())) {
                out.add(next);
            }
        }
        return out;
    }
}
