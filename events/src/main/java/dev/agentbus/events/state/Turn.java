package dev.agentbus.events.state;

import dev.agentbus.events.session.LoopGuard;

import java.util.ArrayList;
import java.util.List;

/**
 * The turn in progress: from a person's message to the final answer (or cancel, cap, error).
 *
 * @param iterations        model calls started in this turn
 * @param pendingRequestId  the model call awaiting its answer, or null
 * @param openToolCalls     ids of this turn's tool calls still without a result, in the order the model asked
 * @param loopWarnings      the loop guards that warned the model in this turn (loop.warned.v1): the next time one of
 *                          them sees a loop, the turn ends
 */
public record Turn(int number, int iterations, String pendingRequestId, List<String> openToolCalls,
                   List<LoopGuard> loopWarnings) {
    public Turn {
        openToolCalls = List.copyOf(openToolCalls);
        // A state written before loop guards existed (a snapshot, a fork) has none.
        loopWarnings = loopWarnings == null ? List.of() : List.copyOf(loopWarnings);
    }

    public Turn(int number, int iterations, String pendingRequestId, List<String> openToolCalls) {
        this(number, iterations, pendingRequestId, openToolCalls, List.of());
    }

    /** The same turn with another model call pending (or none) and these calls open; its warnings stay. */
    Turn with(int iterations, String pendingRequestId, List<String> openToolCalls) {
        return new Turn(number, iterations, pendingRequestId, openToolCalls, loopWarnings);
    }

    Turn warned(LoopGuard guard) {
        List<LoopGuard> warnings = new ArrayList<>(loopWarnings);
        if (!warnings.contains(guard)) {
            warnings.add(guard);
        }
        return new Turn(number, iterations, pendingRequestId, openToolCalls, warnings);
    }
}
