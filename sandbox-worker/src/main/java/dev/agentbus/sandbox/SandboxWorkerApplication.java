package dev.agentbus.sandbox;

import io.micronaut.context.ApplicationContext;

/**
 * Starts the sandbox-worker: it follows {@code agentbus.session-events} for {@code tool_call.requested.v1}, runs
 * each call once in the session's workspace, and reports start and result on {@code agentbus.session-inputs}.
 * Programs run in the session's own sandbox (a Docker container, or bubblewrap where no engine answers) with a
 * persistent shell whose directory and variables are recorded in the log (docs/sandbox.md). Not yet: Kubernetes
 * pods as sandboxes.
 */
public final class SandboxWorkerApplication {
    public static final String SERVICE = "sandbox-worker";

    private SandboxWorkerApplication() {
    }

    public static void main(String[] args) {
        // A plain application context, not Micronaut.run: this service serves no HTTP, and must not start an
        // HTTP server even when the gateway's classes happen to be on the class path.
        ApplicationContext context = ApplicationContext.builder().mainClass(SandboxWorkerApplication.class).args(args)
                .properties(java.util.Map.of("agentbus.service", SERVICE)).start();
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "shutdown"));
    }
}
