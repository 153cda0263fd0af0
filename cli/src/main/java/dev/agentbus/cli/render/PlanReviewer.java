package dev.agentbus.cli.render;

import java.util.List;

/**
 * Who decides a plan that waits for approval while a turn is shown (plan-first mode): {@code agentbus run --plan}
 * asks the person at the terminal. Without one, the renderer only says how to decide it.
 */
@FunctionalInterface
public interface PlanReviewer {
    /**
     * Called once the plan's approval is recorded, on the thread that follows the turn (the stream waits meanwhile).
     *
     * @param steps the plan's steps, as proposed
     * @return null to go on following the turn, or the exit code to stop with
     */
    Integer review(String sessionId, String callId, List<String> steps);
}
