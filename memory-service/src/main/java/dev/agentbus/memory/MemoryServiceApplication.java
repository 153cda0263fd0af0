package dev.agentbus.memory;

import io.micronaut.runtime.Micronaut;

/**
 * Starts the memory-service: the single writer of {@code agentbus.user-memory}. It applies the set/reset commands
 * that the gateway writes to {@code agentbus.memory-commands}; the orchestrator reads the documents from the topic
 * and injects them into the system prompt. Not yet: distilling memories from conversations, protected fields.
 */
public final class MemoryServiceApplication {
    public static final String SERVICE = "memory-service";

    private MemoryServiceApplication() {
    }

    public static void main(String[] args) {
        Micronaut.build(args).mainClass(MemoryServiceApplication.class)
                .properties(java.util.Map.of("agentbus.service", SERVICE))
                .start();
    }
}
