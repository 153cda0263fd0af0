package dev.agentbus.orchestrator.deciding.remembering;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightScore;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.MemoryAction;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.MemoryManaged;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The decider's rule for the agent's {@code manage_memory} call (OS-Agent's structured memory tool), which the
 * orchestrator answers itself. {@code list} reads the user's insights as the orchestrator last read them; a change
 * (add, update, delete) is checked against them and recorded as {@code memory.managed.v1} together with the call's
 * result, in one transaction. The memory-service applies that event once (its keeper is the insights' single
 * writer); the orchestrator never writes the insights itself.
 *
 * <p>The rules: the agent may not change or delete an insight the user protected (only a person may, as with
 * OS-Agent's {@code edit_protected_memory}); a fact that is already remembered is not added twice; nothing is read or
 * written in an incognito session, whose memory is off both ways, nor in a turn a group member started
 * ({@link OwnerOnlyMemory}): the insights are the owner's. Pure, so it is tested given/when/then.
 */
public final class ManageMemoryCall {
    /** The most insights a {@code list} shows, best first: the prompt needs the ids, not the whole set. */
    static final int MAX_LISTED = 50;

    private ManageMemoryCall() {
    }

    /**
     * The events that answer one call, in order: for a change, {@code memory.managed.v1} and a result that says what
     * was done; otherwise only the result (a list, or a failure that tells the model what to fix).
     *
     * @param insights the user's insights as last read from {@code agentbus.user-insights}; null when none are known
     * @param ids      where a new insight's id comes from (recorded in the event, so a replay has the same)
     */
    public static List<SessionEvent> answer(SessionState state, String callId, JsonNode args, InsightSet insights,
                                            Instant now, Supplier<String> ids) {
        if (state.context().incognito()) {
            return failed(callId, "memory is off in this incognito session: nothing is remembered from it, and the "
                    + "user's insights are not shown in it");
        }
        if (OwnerOnlyMemory.withheld(state)) {
            return failed(callId, OwnerOnlyMemory.REFUSAL);
        }
        Optional<MemoryAction> action = Optional.ofNullable(args.get("action")).filter(JsonNode::isTextual)
                .flatMap(a -> MemoryAction.parse(a.asText()));
        if (action.isEmpty()) {
            return failed(callId, "action must be list, add, update or delete");
        }
        List<Insight> known = insights == null ? List.of() : insights.insights();
        return switch (action.get()) {
            case LIST -> List.of(ok(callId, list(known, now)));
            case ADD -> add(callId, args, known, ids);
            case UPDATE -> update(callId, args, known);
            case DELETE -> delete(callId, args, known);
        };
    }

    private static List<SessionEvent> add(String callId, JsonNode args, List<Insight> known, Supplier<String> ids) {
        Optional<InsightCategory> category = text(args, "category").flatMap(InsightCategory::parse);
        if (category.isEmpty()) {
            return failed(callId, "add needs category: identity, skill, preference, project, opinion or "
                    + "session_detail");
        }
        Optional<String> text = text(args, "text");
        Optional<String> wrong = checkText(text);
        if (wrong.isPresent()) {
            return failed(callId, "add " + wrong.get());
        }
        String key = Insight.factKey(category.get(), text.get());
        Optional<Insight> same = known.stream().filter(i -> i.factKey().equals(key)).findFirst();
        if (same.isPresent()) {
            return List.of(ok(callId, "Already remembered as insight " + same.get().id() + ": " + same.get().text()));
        }
        String id = ids.get();
        return List.of(new MemoryManaged(callId, MemoryAction.ADD, id, category.get(), text.get()),
                ok(callId, "Remembered as insight " + id + " (" + category.get().wireName() + "): " + text.get()
                        + ". The user can see, change or delete it in their memory."));
    }

    private static List<SessionEvent> update(String callId, JsonNode args, List<Insight> known) {
        Optional<String> refusal = changeable(args, known, "update");
        if (refusal.isPresent()) {
            return failed(callId, refusal.get());
        }
        Insight old = find(known, text(args, "id").orElseThrow()).orElseThrow();
        Optional<String> text = text(args, "text");
        Optional<String> wrong = checkText(text);
        if (wrong.isPresent()) {
            return failed(callId, "update " + wrong.get());
        }
        InsightCategory category = null;
        if (args.hasNonNull("category")) {
            Optional<InsightCategory> parsed = text(args, "category").flatMap(InsightCategory::parse);
            if (parsed.isEmpty()) {
                return failed(callId, "category must be identity, skill, preference, project, opinion or "
                        + "session_detail (or left out to keep " + old.category().wireName() + ")");
            }
            category = parsed.get() == old.category() ? null : parsed.get();
        }
        if (category == null && old.text().equals(text.get())) {
            return List.of(ok(callId, "Insight " + old.id() + " already says that; nothing changed."));
        }
        InsightCategory now = category == null ? old.category() : category;
        return List.of(new MemoryManaged(callId, MemoryAction.UPDATE, old.id(), category, text.get()),
                ok(callId, "Insight " + old.id() + " now says (" + now.wireName() + "): " + text.get()));
    }

    private static List<SessionEvent> delete(String callId, JsonNode args, List<Insight> known) {
        Optional<String> refusal = changeable(args, known, "delete");
        if (refusal.isPresent()) {
            return failed(callId, refusal.get());
        }
        Insight gone = find(known, text(args, "id").orElseThrow()).orElseThrow();
        return List.of(new MemoryManaged(callId, MemoryAction.DELETE, gone.id(), null, null),
                ok(callId, "Deleted insight " + gone.id() + ": " + gone.text()));
    }

    /** Why the insight the call names may not be changed by the agent; empty when it may. */
    private static Optional<String> changeable(JsonNode args, List<Insight> known, String action) {
        Optional<String> id = text(args, "id");
        if (id.isEmpty()) {
            return Optional.of(action + " needs id: the insight's id, as list shows it");
        }
        Optional<Insight> found = find(known, id.get());
        if (found.isEmpty()) {
            return Optional.of("no insight has id '" + id.get() + "'; list shows the ids (one added moments ago "
                    + "may take a second to appear)");
        }
        if (found.get().isProtected()) {
            return Optional.of("insight " + id.get() + " is protected: only the user can change or delete it");
        }
        return Optional.empty();
    }

    private static String list(List<Insight> known, Instant now) {
        if (known.isEmpty()) {
            return "No insights are remembered about the user yet.";
        }
        List<Insight> best = known.stream()
                .sorted(Comparator.comparingDouble((Insight i) -> InsightScore.of(i, now)).reversed()
                        .thenComparing(Insight::id))
                .limit(MAX_LISTED).toList();
        StringBuilder out = new StringBuilder(known.size() + " insights remembered about the user, best first "
                + "(id, category, text):\n");
        for (Insight i : best) {
            out.append("- ").append(i.id()).append(" (").append(i.category().wireName()).append(") ")
                    .append(i.text());
            if (i.isProtected()) {
                out.append(" [protected: only the user changes it]");
            }
            if (i.disabled()) {
                out.append(" [disabled by the user: not used]");
            }
            out.append('\n');
        }
        if (known.size() > best.size()) {
            out.append("… and ").append(known.size() - best.size()).append(" more that score lower.\n");
        }
        return out.toString().stripTrailing();
    }

    private static Optional<String> checkText(Optional<String> text) {
        if (text.isEmpty()) {
            return Optional.of("needs text: the fact, in one short sentence");
        }
        if (text.get().length() > Insight.MAX_TEXT_CHARS) {
            return Optional.of("text has " + text.get().length() + " characters; an insight has at most "
                    + Insight.MAX_TEXT_CHARS + ", so keep to one short fact");
        }
        return Optional.empty();
    }

    /** A string argument with its spacing tidied (an insight is one line in the prompt); empty when absent or blank. */
    private static Optional<String> text(JsonNode args, String name) {
        JsonNode value = args.get(name);
        if (value == null || !value.isTextual()) {
            return Optional.empty();
        }
        String tidy = value.asText().strip().replaceAll("\\s+", " ");
        return tidy.isEmpty() ? Optional.empty() : Optional.of(tidy);
    }

    private static Optional<Insight> find(List<Insight> known, String id) {
        return known.stream().filter(i -> i.id().equals(id)).findFirst();
    }

    private static ToolCallCompleted ok(String callId, String output) {
        return new ToolCallCompleted(callId, true, output, null, null, false, 0, false);
    }

    private static List<SessionEvent> failed(String callId, String error) {
        return List.of(new ToolCallCompleted(callId, false, null, error, null, false, 0, false));
    }
}
