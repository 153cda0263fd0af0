package dev.agentbus.memory.keepinginsights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Applies a refinement: each merge replaces the insights it names with one. All or nothing: if any named insight is
 * gone (deleted since the model was asked), protected, or named by two merges, the set stays as it was — a
 * refinement computed from another set than this one must not half-apply. Pure.
 */
final class Refining {
    private Refining() {
    }

    static List<Insight> apply(List<Insight> insights, InsightCommand.ApplyRefinement r, Instant now) {
        Set<String> named = new HashSet<>();
        for (InsightCommand.Merge m : r.merges()) {
            for (String id : m.replaces()) {
                Optional<Insight> i = insights.stream().filter(x -> x.id().equals(id)).findFirst();
                if (i.isEmpty() || i.get().isProtected() || !named.add(id)) {
                    return insights;
                }
            }
        }
        List<Insight> out = new ArrayList<>(insights.stream().filter(i -> !named.contains(i.id())).toList());
        for (int n = 0; n < r.merges().size(); n++) {
            InsightCommand.Merge m = r.merges().get(n);
            List<Insight> parts = insights.stream().filter(i -> m.replaces().contains(i.id())).toList();
            String id = UUID.nameUUIDFromBytes((r.commandId() + "/" + n).getBytes(StandardCharsets.UTF_8)).toString();
            List<InsightSource> sources = parts.stream().flatMap(p -> p.sources().stream()).distinct().toList();
            Instant created = parts.stream().map(Insight::createdAt).filter(java.util.Objects::nonNull)
                    .min(Comparator.naturalOrder()).orElse(now);
            boolean byPerson = parts.stream().anyMatch(p -> p.origin() == Insight.Origin.PERSON);
            out.add(new Insight(id, m.category(), m.text(), m.confidence(), sources, created, now,
                    parts.stream().mapToLong(Insight::uses).sum(), parts.stream().mapToLong(Insight::upVotes).sum(),
                    parts.stream().mapToLong(Insight::downVotes).sum(), parts.stream().allMatch(Insight::disabled),
                    parts.stream().anyMatch(Insight::pinned), false,
                    byPerson ? Insight.Origin.PERSON : Insight.Origin.DISTILLED));
        }
        return out;
    }
}
