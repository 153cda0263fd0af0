package dev.agentbus.orchestrator;

import io.micronaut.runtime.Micronaut;

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
        Micronaut.build(args).mainClass(OrchestratorApplication.class)
                .properties(java.util.Map.of("agentbus.service", SERVICE))
                .start();
    }
}
