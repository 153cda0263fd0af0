package dev.agentbus.orchestrator.running;

import dev.agentbus.events.input.InputEnvelope;

/** How a step shows in a trace: named after the kind of input it decides ({@code orchestrator step UserMessage}). */
final class Steps {
    private Steps() {
    }

    static String spanName(InputEnvelope input) {
        return "orchestrator step " + (input.input() == null ? "unknown" : input.input().getClass().getSimpleName());
    }
}
