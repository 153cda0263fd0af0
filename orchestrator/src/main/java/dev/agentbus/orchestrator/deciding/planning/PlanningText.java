package dev.agentbus.orchestrator.deciding.planning;

import dev.agentbus.events.planning.Plan;
import dev.agentbus.events.planning.PlanStep;
import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.planning.TaskState;
import dev.agentbus.events.planning.Todo;

import java.util.List;
import java.util.Locale;

/**
 * Todos, the plan and the task state as the model reads them: in the results of the planning tools, and in the
 * system prompt of every model call (so they survive a long conversation). Plain lines, one item each.
 */
public final class PlanningText {
    private PlanningText() {
    }

    public static String todos(List<Todo> todos) {
        return todos.isEmpty() ? "No todos yet." : todos("Todos:", todos);
    }

    private static String todos(String heading, List<Todo> todos) {
        StringBuilder sb = new StringBuilder(heading);
        for (Todo t : todos) {
            sb.append("\n#").append(t.id()).append(" [").append(t.status().wireName()).append("] ").append(t.text());
            if (t.note() != null) {
                sb.append(" (").append(t.note()).append(')');
            }
        }
        return sb.toString();
    }

    public static String plan(Plan plan) {
        StringBuilder sb = new StringBuilder("Plan #").append(plan.number());
        if (plan.title() != null) {
            sb.append(": ").append(plan.title());
        }
        sb.append(" (").append(plan.status().name().toLowerCase(Locale.ROOT)).append(')');
        int current = plan.currentStep();
        for (int i = 0; i < plan.steps().size(); i++) {
            PlanStep step = plan.steps().get(i);
            sb.append('\n').append(i + 1 == current ? "→ " : "  ").append(i + 1).append(". [")
                    .append(step.status().name().toLowerCase(Locale.ROOT)).append("] ").append(step.text());
            if (step.evidence() != null) {
                sb.append(" — evidence: ").append(step.evidence());
            }
            if (step.reason() != null) {
                sb.append(" — skipped: ").append(step.reason());
            }
        }
        if (plan.note() != null) {
            sb.append("\nNote: ").append(plan.note());
        }
        return sb.toString();
    }

    /** What comes next in an active plan, or that it is over. */
    public static String next(Plan plan) {
        int current = plan.currentStep();
        return current == 0 ? "Every step is done or skipped: the plan is complete."
                : "Current step: " + current + ". " + plan.step(current).text();
    }

    public static String taskState(TaskState t) {
        return taskState(t, true);
    }

    /** Without the item lists, which a batch job of thousands would make long, it fits every system prompt. */
    private static String taskState(TaskState t, boolean withItems) {
        if (t == null) {
            return "No task state recorded yet.";
        }
        StringBuilder sb = new StringBuilder("Task state");
        if (t.task() != null) {
            sb.append(": ").append(t.task());
        }
        sb.append("\nDone: ").append(t.done().size()).append(t.total() == null ? "" : " of " + t.total());
        sb.append(", failed: ").append(t.failed().size());
        if (withItems && !t.done().isEmpty()) {
            sb.append("\nDone items: ").append(String.join(", ", t.done()));
        }
        if (withItems && !t.failed().isEmpty()) {
            sb.append("\nFailed items: ").append(String.join(", ", t.failed()));
        }
        if (t.notes() != null) {
            sb.append("\nNotes: ").append(t.notes());
        }
        if (t.updatedAt() != null) {
            sb.append("\nLast checkpoint: ").append(t.updatedAt());
        }
        return sb.toString();
    }

    /**
     * The part of the system prompt about planning: plan-first mode, the plan, the open todos and the task state;
     * empty for a session that never planned anything. Finished todos are left out: they are done with.
     */
    public static String promptSection(Planning p) {
        StringBuilder sb = new StringBuilder();
        if (p.planFirst()) {
            sb.append("\n\nThis session is in plan-first mode: before any other tool, propose a plan with plan_create "
                    + "and wait for the user's approval. Work through an approved plan step by step and report each "
                    + "step with plan_complete_step and its evidence.");
        }
        if (p.plan() != null) {
            sb.append("\n\n").append(plan(p.plan()));
        }
        List<Todo> open = p.todos().stream().filter(t -> !t.closed()).toList();
        if (!open.isEmpty()) {
            sb.append("\n\n").append(todos("Open todos:", open));
        }
        if (p.taskState() != null) {
            sb.append("\n\n").append(taskState(p.taskState(), false)).append(" (task_state_get lists the items)");
        }
        return sb.toString();
    }
}
