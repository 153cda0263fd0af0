package dev.agentbus.events.state;

import java.util.List;

/**
 * The turn in progress: from a person's message to the final answer (or cancel, cap, error).
 *
 * @param iterations        model calls started in this turn
 * @param pendingRequestId  the model call awaiting its answer, or null
 * @param openToolCalls     ids of this turn's tool calls still without a result, in the order the model asked
 */
public record Turn(int number, int iterations, String pendingRequestId, List<String> openToolCalls) {
    public Turn {
        openToolCalls = List.copyOf(openToolCalls);
    }
}
