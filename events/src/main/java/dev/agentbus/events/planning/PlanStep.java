package dev.agentbus.events.planning;

/**
 * One step of a plan.
 *
 * @param evidence what shows a DONE step is done (a test run, a file written …), as the model reported it
 * @param reason   why a SKIPPED step was passed over; null when none was given
 */
public record PlanStep(String text, StepStatus status, String evidence, String reason) {

    static PlanStep pending(String text) {
        return new PlanStep(text, StepStatus.PENDING, null, null);
    }
}
