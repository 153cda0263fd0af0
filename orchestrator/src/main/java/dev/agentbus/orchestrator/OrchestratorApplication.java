package dev.agentbus.orchestrator;

import io.micronaut.context.ApplicationContext;

/**
 * Starts the orchestrator service: it consumes {@code agentbus.session-inputs}, decides, appends to
 * {@code agentbus.session-events}, and calls the model server. It serves no HTTP; the gateway does.
 * Taking over a partition starts from each session's latest snapshot ({@code agentbus.session-snapshots}) and folds
 * only the events after it. Not yet: approvals, todos, compaction, sub-agents.
 */
public final class OrchestratorApplication {
    public static final String SERVICE = "orchestrator";

    private OrchestratorApplication() {
    }

    public static void main(String[] args) {
        // A plain application context, not Micronaut.run: this service serves no HTTP, and must not start an
        // HTTP server even when the gateway's classes happen to be on the class path.
        ApplicationContext context = ApplicationContext.builder().mainClass(OrchestratorApplication.class).args(args)
                .properties(java.util.Map.of("agentbus.service", SERVICE)).start();
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "shutdown"));
    }
}
