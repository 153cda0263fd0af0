package dev.agentbus.scheduler;

import io.micronaut.context.ApplicationContext;

/**
 * Starts the scheduler service: it follows {@code agentbus.session-events}, keeps a timer for each pending wait and
 * approval, and writes {@code wake_up.v1} or {@code expire_approval.v1} to {@code agentbus.session-inputs} when one is
 * due; and it follows {@code agentbus.inbox} and starts each queued task at its time ({@code start_inbox_task.v1}).
 * Both are rebuilt from their topics at every start, so a restart loses none.
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
