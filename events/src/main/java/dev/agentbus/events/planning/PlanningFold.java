package dev.agentbus.events.planning;

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

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The pure fold of the planning events into {@link Planning}, the part of {@code SessionFold} that is about todos,
 * plans and task state. Like it, it only assigns: the orchestrator checked every event before emitting it, so an
 * event naming a todo, plan or step that does not exist (a log from elsewhere) changes nothing rather than failing.
 */
public final class PlanningFold {
    private PlanningFold() {
    }

    public static Planning evolve(Planning p, PlanningEvent event, Instant time) {
        return switch (event) {
            case PlanFirstChanged s -> new Planning(s.on(), p.todos(), p.plan(), p.taskState());
            case TodoAdded a -> {
                if (p.todo(a.id()).isPresent()) {
                    yield p;
                }
                List<Todo> todos = new ArrayList<>(p.todos());
                todos.add(new Todo(a.id(), a.text(), TodoStatus.PENDING, null));
                yield withTodos(p, todos);
            }
            case TodoUpdated u -> withTodos(p, p.todos().stream().map(t -> t.id() != u.id() ? t : new Todo(t.id(),
                    u.text() != null ? u.text() : t.text(), u.status() != null ? u.status() : t.status(),
                    u.note() != null ? u.note() : t.note())).toList());
            case PlanCreated c -> new Planning(p.planFirst(), p.todos(), new Plan(c.number(), c.title(),
                    c.steps().stream().map(PlanStep::pending).toList(),
                    c.awaitingApproval() ? PlanStatus.PROPOSED : PlanStatus.ACTIVE, c.callId(), null), p.taskState());
            case PlanStepCompleted c -> withStep(p, c.number(), c.step(),
                    s -> new PlanStep(s.text(), StepStatus.DONE, c.evidence(), null));
            case PlanAdvanced a -> withStep(p, a.number(), a.skippedStep(),
                    s -> new PlanStep(s.text(), StepStatus.SKIPPED, null, a.reason()));
            case PlanAborted a -> isPlan(p, a.number())
                    ? withPlan(p, new Plan(p.plan().number(), p.plan().title(), p.plan().steps(), PlanStatus.ABORTED,
                    p.plan().callId(), a.reason()))
                    : p;
            case TaskStateUpdated u -> new Planning(p.planFirst(), p.todos(), p.plan(), updated(p.taskState(), u, time));
            case TaskReconciled r -> p.taskState() == null ? p
                    : new Planning(p.planFirst(), p.todos(), p.plan(), reconciled(p.taskState(), r, time));
        };
    }

    /**
     * The user's decision on a proposed plan arrives as the decision on its {@code plan_create} call
     * ({@code approval.decided.v1}): an allowed call makes the plan active, any other decision rejects it, with
     * the note. A decision on any other call changes nothing here.
     */
    public static Planning approvalDecided(Planning p, String callId, boolean allows, String note) {
        if (!p.isProposedPlanCall(callId)) {
            return p;
        }
        Plan plan = p.plan();
        return withPlan(p, new Plan(plan.number(), plan.title(), plan.steps(),
                allows ? PlanStatus.ACTIVE : PlanStatus.REJECTED, plan.callId(), allows ? null : note));
    }

    /**
     * A plan still waiting for approval when its turn ends (a cancel) can no longer be approved: its approval went
     * with the turn. It is aborted. A fork starts without a turn, so a fork of such a session does the same.
     */
    public static Planning turnEnded(Planning p) {
        return p.proposedPlan().map(plan -> withPlan(p, new Plan(plan.number(), plan.title(), plan.steps(),
                PlanStatus.ABORTED, plan.callId(), null))).orElse(p);
    }

    private static Planning withTodos(Planning p, List<Todo> todos) {
        return new Planning(p.planFirst(), todos, p.plan(), p.taskState());
    }

    private static Planning withPlan(Planning p, Plan plan) {
        return new Planning(p.planFirst(), p.todos(), plan, p.taskState());
    }

    private static boolean isPlan(Planning p, int number) {
        return p.plan() != null && p.plan().number() == number;
    }

    /** Changes one step of the active plan; the plan is complete once no step is pending. */
    private static Planning withStep(Planning p, int number, int step, UnaryOperator<PlanStep> change) {
        if (!isPlan(p, number) || p.plan().status() != PlanStatus.ACTIVE || p.plan().step(step) == null) {
            return p;
        }
        List<PlanStep> steps = new ArrayList<>(p.plan().steps());
        steps.set(step - 1, change.apply(steps.get(step - 1)));
        boolean over = steps.stream().noneMatch(s -> s.status() == StepStatus.PENDING);
        Plan plan = p.plan();
        return withPlan(p, new Plan(plan.number(), plan.title(), steps,
                over ? PlanStatus.COMPLETED : PlanStatus.ACTIVE, plan.callId(), plan.note()));
    }

    private static TaskState updated(TaskState old, TaskStateUpdated u, Instant time) {
        TaskState t = old != null ? old : new TaskState(null, null, List.of(), List.of(), null, null);
        List<String> done = new ArrayList<>(t.done());
        List<String> failed = new ArrayList<>(t.failed());
        // The latest report of an item wins: done after failing (a retry worked), or failed after being done.
        for (String item : u.done()) {
            failed.remove(item);
            if (!done.contains(item)) {
                done.add(item);
            }
        }
        for (String item : u.failed()) {
            done.remove(item);
            if (!failed.contains(item)) {
                failed.add(item);
            }
        }
        return new TaskState(u.task() != null ? u.task() : t.task(), u.total() != null ? u.total() : t.total(),
                done, failed, u.notes() != null ? u.notes() : t.notes(), time);
    }

    private static TaskState reconciled(TaskState t, TaskReconciled r, Instant time) {
        return new TaskState(t.task(), t.total(), reconciled(t.done(), r), reconciled(t.failed(), r), t.notes(), time);
    }

    private static List<String> reconciled(List<String> items, TaskReconciled r) {
        List<String> out = new ArrayList<>();
        for (String item : items) {
            String now = r.renamed().getOrDefault(item, item);
            if (!r.removed().contains(item) && !out.contains(now)) {
                out.add(now);
            }
        }
        return out;
    }
}
