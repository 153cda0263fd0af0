package dev.agentbus.gateway.transfer;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.sessions.SessionDirectory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits, on the gateway's view of the log, for the answer to a tool call a person ran: its
 * {@code tool_call.completed.v1}, or the {@code input.rejected.v1} of the input that asked for it.
 */
final class UserToolCalls {
    private UserToolCalls() {
    }

    /**
     * Subscribes before the caller sends the input (so the answer cannot slip by unseen) and returns the pending
     * answer; the caller closes the subscription with {@link Pending#close()}.
     */
    static Pending watch(SessionDirectory directory, String sessionId, long afterSeq, String callId) {
        Pending pending = new Pending(callId);
        pending.unsubscribe = directory.subscribe(sessionId, afterSeq, pending);
        return pending;
    }

    static final class Pending implements SessionDirectory.Subscriber, AutoCloseable {
        private final String callId;
        private final CompletableFuture<EventEnvelope> answer = new CompletableFuture<>();
        /** Rejections seen before the input id was known: the answer may be folded before send() returns. */
        private final List<EventEnvelope> rejections = new ArrayList<>();
        private String inputId;
        private Runnable unsubscribe = () -> { };

        private Pending(String callId) {
            this.callId = callId;
        }

        /** The id of the input that asked for the call, known only once it is sent. */
        synchronized void inputSent(String id) {
            this.inputId = id;
            rejections.stream().filter(this::rejectsOurInput).findFirst().ifPresent(answer::complete);
        }

        @Override
        public synchronized void onEvent(EventEnvelope event) {
            if (event.event() instanceof ToolCallCompleted c && callId.equals(c.callId())) {
                answer.complete(event);
            } else if (event.event() instanceof InputRejected) {
                if (inputId == null) {
                    rejections.add(event);
                } else if (rejectsOurInput(event)) {
                    answer.complete(event);
                }
            }
        }

        private boolean rejectsOurInput(EventEnvelope event) {
            return event.event() instanceof InputRejected r && inputId != null && inputId.equals(r.inputId());
        }

        @Override
        public void onDelta(StreamChunk chunk) {
            // live output is not the answer
        }

        /** The completion or the rejection, or empty when none came in time. */
        Optional<EventEnvelope> await(Duration timeout) throws InterruptedException {
            try {
                return Optional.of(answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                return Optional.empty();
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }

        @Override
        public void close() {
            unsubscribe.run();
        }
    }
}
