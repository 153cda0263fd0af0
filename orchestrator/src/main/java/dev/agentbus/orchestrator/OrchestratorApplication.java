package dev.agentbus.orchestrator;

import io.micronaut.context.ApplicationContext;

/**
 * Starts the orchestrator service: it consumes {@code agentbus.session-inputs}, decides, appends to
 * {@code agentbus.session-events}, and calls the model server. It serves no HTTP; the gateway does.
 * Not yet: snapshots (recovery folds the whole partition), approvals, todos, compaction, sub-agents.
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
