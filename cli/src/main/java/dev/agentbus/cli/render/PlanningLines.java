package dev.agentbus.cli.render;

import dev.agentbus.events.session.SessionEvent.PlanAborted;
import dev.agentbus.events.session.SessionEvent.PlanAdvanced;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.TaskReconciled;
import dev.agentbus.events.session.SessionEvent.TaskStateUpdated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;

import java.util.ArrayList;
import java.util.List;

/**
 * The planning events (todos, plans, task state) as the terminal shows them, one line each, for a running turn and
 * for a replayed timeline alike. A new plan also lists its steps.
 */
public final class PlanningLines {
    private static final int WIDTH = 160;

    private PlanningLines() {
    }

    /** The event's line, then (for a new plan) one line per step. */
    public static List<String> of(PlanningEvent event) {
        List<String> out = new ArrayList<>();
        switch (event) {
            case PlanFirstChanged f -> out.add("plan-first mode " + (f.on() ? "on" : "off")
                    + (f.changedBy() == null ? "" : " (set by " + f.changedBy() + ")"));
            case TodoAdded a -> out.add("☐ todo #" + a.id() + ": " + Text.oneLine(a.text(), WIDTH));
            case TodoUpdated u -> out.add((u.status() == null ? "☐ todo #" + u.id() + " changed"
                    : (u.status() == dev.agentbus.events.planning.TodoStatus.DONE ? "☑" : "☐") + " todo #" + u.id()
                    + " " + u.status().name().toLowerCase(java.util.Locale.ROOT))
                    + (u.text() == null ? "" : ": " + Text.oneLine(u.text(), WIDTH))
                    + (u.note() == null ? "" : " (" + Text.oneLine(u.note(), WIDTH) + ")"));
            case PlanCreated c -> {
                out.add("plan #" + c.number() + (c.title() == null ? "" : ": " + Text.oneLine(c.title(), WIDTH))
                        + (c.awaitingApproval() ? " (waits for your approval)" : ""));
                for (int i = 0; i < c.steps().size(); i++) {
                    out.add("  " + (i + 1) + ". " + Text.oneLine(c.steps().get(i), WIDTH));
                }
            }
            case PlanStepCompleted s -> out.add("✓ plan step " + s.step() + " done: " + Text.oneLine(s.evidence(), WIDTH));
            case PlanAdvanced a -> out.add("↷ plan step " + a.skippedStep() + " skipped"
                    + (a.reason() == null ? "" : ": " + Text.oneLine(a.reason(), WIDTH)));
            case PlanAborted a -> out.add("✗ plan #" + a.number() + " aborted: " + Text.oneLine(a.reason(), WIDTH));
            case TaskStateUpdated u -> out.add("task state saved" + (u.task() == null ? "" : ": " + Text.oneLine(u.task(), 60))
                    + (u.done().isEmpty() ? "" : ", " + u.done().size() + " more done")
                    + (u.failed().isEmpty() ? "" : ", " + u.failed().size() + " failed")
                    + (u.total() == null ? "" : ", " + u.total() + " in all"));
            case TaskReconciled r -> out.add("task state reconciled: " + r.renamed().size() + " renamed, "
                    + r.removed().size() + " removed");
        }
        return out;
    }
}
