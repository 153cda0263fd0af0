package dev.agentbus.scheduler;

import io.micronaut.context.ApplicationContext;

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
        // A plain application context, not Micronaut.run: this service serves no HTTP, and must not start an
        // HTTP server even when the gateway's classes happen to be on the class path.
        ApplicationContext context = ApplicationContext.builder().mainClass(SchedulerApplication.class).args(args)
                .properties(java.util.Map.of("agentbus.service", SERVICE)).start();
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "shutdown"));
    }
}
