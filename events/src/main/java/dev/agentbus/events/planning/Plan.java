package dev.agentbus.events.planning;

import java.util.List;

/**
 * The session's plan: numbered steps worked through in order.
 *
 * @param number the plan's number in the session (1 for the first plan, 2 for the next …)
 * @param callId the {@code plan_create} call that proposed it: in plan-first mode that call is what the user approves
 * @param note   the user's note on a rejected plan, or the model's reason for aborting it; null when none
 */
public record Plan(int number, String title, List<PlanStep> steps, PlanStatus status, String callId, String note) {
    public Plan {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /** The step being worked on: the first one still pending, 1-based; 0 when none is (or the plan is not active). */
    public int currentStep() {
        if (status != PlanStatus.ACTIVE) {
            return 0;
        }
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).status() == StepStatus.PENDING) {
                return i + 1;
            }
        }
        return 0;
    }

    /** Step {@code number} (1-based), or null when there is no such step. */
    public PlanStep step(int number) {
        return number >= 1 && number <= steps.size() ? steps.get(number - 1) : null;
    }
}
