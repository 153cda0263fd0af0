package dev.agentbus.memory;

import io.micronaut.context.ApplicationContext;

/**
 * Starts the memory-service: the single writer of {@code agentbus.user-memory} and {@code agentbus.user-insights}. It
 * applies the set/reset commands that the gateway writes to {@code agentbus.memory-commands}; the orchestrator reads
 * the documents from the topic and injects them into the system prompt. With {@code agentbus.memory.distill.enabled}
 * it also follows the session log and asks the model what each completed turn says about the user, and keeps those
 * insights, which people edit through the gateway (docs/memory.md), and rebuilds them from the whole log when an
 * administrator asks. It always counts how often each insight went into a prompt and the votes on the answers they
 * shaped, and applies the changes the agent made with its {@code manage_memory} tool.
 */
public final class MemoryServiceApplication {
    public static final String SERVICE = "memory-service";

    private MemoryServiceApplication() {
    }

    public static void main(String[] args) {
        // A plain application context, not Micronaut.run: this service serves no HTTP, and must not start an
        // HTTP server even when the gateway's classes happen to be on the class path.
        ApplicationContext context = ApplicationContext.builder().mainClass(MemoryServiceApplication.class).args(args)
                .properties(java.util.Map.of("agentbus.service", SERVICE)).start();
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "shutdown"));
    }
}
