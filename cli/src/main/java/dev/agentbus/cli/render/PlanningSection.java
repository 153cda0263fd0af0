package dev.agentbus.cli.render;

import dev.agentbus.api.PlanningView;
import dev.agentbus.cli.Printer;

import java.util.List;

/**
 * The agent's plan, todos and task state as {@code agentbus show} prints them, from the session view (or from
 * {@code GET /api/v1/sessions/{id}/planning}): one method each, so a client that shows only one of them (the
 * REPL's {@code /plan} and {@code /todo}) prints it the same way.
 */
public final class PlanningSection {
    private static final int WIDTH = 160;

    private final Printer p;

    public PlanningSection(Printer printer) {
        this.p = printer;
    }

    /** The plan with its steps, the current one marked; nothing when there is none. */
    public void plan(PlanningView.Plan plan, String sessionId) {
        planDecidedWith(plan, plan == null ? "" : "agentbus approve " + sessionId + " " + plan.callId()
                + "  (or deny, with --note)");
    }

    /** {@link #plan}, with {@code decide} saying how a plan that waits for approval is decided. */
    public void planDecidedWith(PlanningView.Plan plan, String decide) {
        if (plan == null) {
            return;
        }
        p.println(p.bold("Plan #" + plan.number()) + (plan.title() == null ? "" : " " + Text.oneLine(plan.title(), WIDTH))
                + p.dim(" · " + plan.status()) + (plan.note() == null ? "" : p.dim(" · " + Text.oneLine(plan.note(), WIDTH))));
        List<PlanningView.Step> steps = plan.steps() == null ? List.of() : plan.steps();
        for (int i = 0; i < steps.size(); i++) {
            PlanningView.Step step = steps.get(i);
            String mark = switch (String.valueOf(step.status())) {
                case "done" -> p.green("✓");
                case "skipped" -> p.dim("↷");
                default -> i + 1 == plan.currentStep() ? p.cyan("→") : " ";
            };
            String detail = step.evidence() != null ? " — " + Text.oneLine(step.evidence(), WIDTH)
                    : step.reason() != null ? " — skipped: " + Text.oneLine(step.reason(), WIDTH) : "";
            p.println("  " + mark + " " + (i + 1) + ". " + Text.oneLine(step.text(), WIDTH) + p.dim(detail));
        }
        if ("proposed".equals(plan.status())) {
            p.println(p.yellow("  waits for your approval") + p.dim(" — " + decide));
        }
    }

    /** The todos, one line each; nothing when there are none. */
    public void todos(List<PlanningView.Todo> todos) {
        if (todos == null || todos.isEmpty()) {
            return;
        }
        p.println(p.bold("Todos"));
        for (PlanningView.Todo t : todos) {
            String mark = "done".equals(t.status()) ? p.green("☑") : "cancelled".equals(t.status()) ? p.dim("☒") : "☐";
            p.println("  " + mark + " #" + t.id() + " " + Text.oneLine(t.text(), WIDTH)
                    + p.dim(" · " + t.status() + (t.note() == null ? "" : " · " + Text.oneLine(t.note(), WIDTH))));
        }
    }

    /** The batch job's checkpoint in one line: counts and notes; nothing when there is none. */
    public void taskState(PlanningView.TaskState t) {
        if (t == null) {
            return;
        }
        int done = t.done() == null ? 0 : t.done().size();
        int failed = t.failed() == null ? 0 : t.failed().size();
        p.println(p.bold("Task state") + " " + (t.task() == null ? "" : Text.oneLine(t.task(), WIDTH) + " · ")
                + done + (t.total() == null ? "" : " of " + t.total()) + " done · " + failed + " failed"
                + (t.notes() == null ? "" : p.dim(" · " + Text.oneLine(t.notes(), WIDTH))));
    }
}
