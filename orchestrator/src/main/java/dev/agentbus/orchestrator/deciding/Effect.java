package dev.agentbus.orchestrator.deciding;

/**
 * Work the orchestrator does after the events of a decision are committed. Its outcome comes back as an input and
 * is recorded as an event; the effect itself never writes to the log. Tool calls are not effects here: the
 * sandbox-worker reacts to {@code tool_call.requested.v1} events on its own.
 */
public sealed interface Effect {
    /** Call the model with the prompt built from the session state as of this decision. */
    record CallModel(String sessionId, String requestId) implements Effect {
    }

    /**
     * Stop the model call still streaming for a turn that ended without it (a cancel): its answer would be ignored
     * anyway, and the model server should stop spending time on it. Only this process may be running it; a call that
     * is not running here is nothing to stop.
     */
    record StopModelCall(String sessionId, String requestId) implements Effect {
    }

    /**
     * Ask the model for a summary of the older conversation, as {@code context.compaction_requested.v1} of this
     * request id describes it; the summary comes back as {@code record_context_summary.v1}.
     */
    record Summarise(String sessionId, String requestId) implements Effect {
    }
}
