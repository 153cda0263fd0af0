package dev.agentbus.events.planning;

import java.util.List;
import java.util.Optional;

/**
 * What the agent keeps track of while it works, folded from the planning events ({@link PlanningFold}): whether the
 * session is in plan-first mode, its todo list, its plan, and the checkpoint of a long batch job.
 *
 * @param planFirst whether tools other than the planning tools wait for a plan the user approved (LMAgent's
 *                  {@code --plan}); see {@link #holdsTools()}
 * @param todos     every todo of the session, in the order added
 * @param plan      the latest plan, null before the first one; a new plan replaces one that is over
 * @param taskState the batch job's checkpoint, null before the first {@code task_state_update}
 */
public record Planning(boolean planFirst, List<Todo> todos, Plan plan, TaskState taskState) {
    /** A session that never planned anything. */
    public static final Planning NONE = new Planning(false, List.of(), null, null);

    public Planning {
        todos = todos == null ? List.of() : List.copyOf(todos);
    }

    /**
     * Jackson's filter that leaves {@link #NONE} out of a state's JSON: {@code equals} answers "exclude this value".
     * Not a comparison of two plannings.
     */
    @SuppressWarnings("EqualsWhichDoesntCheckParameterClass")
    public static final class IsNone {
        @Override
        public boolean equals(Object value) {
            return value == null || NONE.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    public Optional<Todo> todo(int id) {
        return todos.stream().filter(t -> t.id() == id).findFirst();
    }

    /** The plan if one is being worked through. */
    public Optional<Plan> activePlan() {
        return plan != null && plan.status() == PlanStatus.ACTIVE ? Optional.of(plan) : Optional.empty();
    }

    /** The plan if one waits for the user's approval. */
    public Optional<Plan> proposedPlan() {
        return plan != null && plan.status() == PlanStatus.PROPOSED ? Optional.of(plan) : Optional.empty();
    }

    /** Whether {@code callId} is the {@code plan_create} call of a plan that waits for the user's approval. */
    public boolean isProposedPlanCall(String callId) {
        return proposedPlan().map(p -> p.callId() != null && p.callId().equals(callId)).orElse(false);
    }

    /**
     * Whether plan-first mode holds back the tools other than the planning tools now: it does until the user
     * approved a plan, and again once that plan is over (completed, aborted), until the next one is approved.
     */
    public boolean holdsTools() {
        return planFirst && activePlan().isEmpty();
    }

    /** The number the next plan gets. */
    public int nextPlanNumber() {
        return plan == null ? 1 : plan.number() + 1;
    }

    /** The id the next todo gets. */
    public int nextTodoId() {
        return todos.stream().mapToInt(Todo::id).max().orElse(0) + 1;
    }
}
