package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.planning.Planning;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /api/v1/sessions/{id}/planning}: what the agent keeps track of, as docs/api.md#todos-plans-and-task-state
 * describes it. The session view ({@link SessionDetails}) carries the same fields.
 *
 * @param planFirst whether tools wait for a plan the user approved
 * @param todos     every todo, in the order added; empty when none
 * @param plan      the latest plan, absent before the first
 * @param taskState the batch job's checkpoint, absent before the first
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanningView(boolean planFirst, List<Todo> todos, Plan plan, TaskState taskState) {

    public static PlanningView of(Planning p) {
        return new PlanningView(p.planFirst(), p.todos().stream().map(Todo::of).toList(), Plan.of(p.plan()),
                TaskState.of(p.taskState()));
    }

    private static String lower(Enum<?> e) {
        return e == null ? null : e.name().toLowerCase(Locale.ROOT);
    }

    /** {@code status}: pending, in_progress, done or cancelled. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Todo(int id, String text, String status, String note) {
        static Todo of(dev.agentbus.events.planning.Todo t) {
            return new Todo(t.id(), t.text(), lower(t.status()), t.note());
        }
    }

    /**
     * @param status      proposed (waiting for the user's approval), active, completed, aborted or rejected
     * @param currentStep the step being worked on, 1-based; 0 when none is
     * @param callId      the plan_create call; while the plan is proposed, its pending approval
     * @param note        the user's note on a rejected plan, or why it was aborted
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Plan(int number, String title, String status, int currentStep, List<Step> steps, String callId,
                       String note) {
        static Plan of(dev.agentbus.events.planning.Plan p) {
            return p == null ? null : new Plan(p.number(), p.title(), lower(p.status()), p.currentStep(),
                    p.steps().stream().map(Step::of).toList(), p.callId(), p.note());
        }
    }

    /**
     * @param status   pending, done or skipped
     * @param evidence what shows a done step is done
     * @param reason   why a skipped step was skipped
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String text, String status, String evidence, String reason) {
        static Step of(dev.agentbus.events.planning.PlanStep s) {
            return new Step(s.text(), lower(s.status()), s.evidence(), s.reason());
        }
    }

    /** A batch job's checkpoint; {@code total} is absent when not known. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TaskState(String task, Integer total, List<String> done, List<String> failed, String notes,
                            Instant updatedAt) {
        static TaskState of(dev.agentbus.events.planning.TaskState t) {
            return t == null ? null : new TaskState(t.task(), t.total(), t.done(), t.failed(), t.notes(),
                    t.updatedAt());
        }
    }
}
