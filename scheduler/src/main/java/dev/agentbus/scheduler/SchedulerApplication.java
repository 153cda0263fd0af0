package dev.agentbus.scheduler;

import io.micronaut.runtime.Micronaut;

/**
 * Starts the scheduler service: it follows {@code agentbus.session-events}, keeps a timer for each pending wait,
 * and writes {@code wake_up.v1} to {@code agentbus.session-inputs} when one is due. Its pending waits are rebuilt
 * from the log at every start, so a restart loses none. Not yet: approval time-outs and inbox tasks.
 */
public final class SchedulerApplication {
    public static final String SERVICE = "scheduler";

    private SchedulerApplication() {
    }

    public static void main(String[] args) {
        Micronaut.build(args).mainClass(SchedulerApplication.class)
                .properties(java.util.Map.of("agentbus.service", SERVICE))
                .start();
    }
}
