package dev.agentbus.gateway.files;

import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a sandbox tool for a person and waits for its result: sends {@code run_user_tool.v1} with a call id of its
 * own, then watches the session's log for the {@code tool_call.completed.v1} of that call, or the
 * {@code input.rejected.v1} of that input (a turn started in between). The request is durable once sent: if no
 * answer comes in time, the call still runs when a worker gets to it.
 */
public final class UserToolCalls {
    /** How a person's tool call ended, as far as the gateway waited. */
    public sealed interface Outcome {
        /** The worker ran it (or refused it); the event says how it went. */
        record Completed(ToolCallCompleted result) implements Outcome {
        }

        /** The orchestrator did not accept the input, for this reason. */
        record Rejected(String reason) implements Outcome {
        }

        /** No answer within the time-out; the call may still run later. */
        record TimedOut(Duration waited) implements Outcome {
        }
    }

    private final SessionDirectory directory;
    private final InputSender inputs;

    public UserToolCalls(SessionDirectory directory, InputSender inputs) {
        this.directory = directory;
        this.inputs = inputs;
    }

    public Outcome run(String sessionId, String userId, String tool, String arguments, Duration timeout)
            throws InterruptedException {
        String callId = "user-" + UUID.randomUUID();
        BlockingQueue<EventEnvelope> seen = new LinkedBlockingQueue<>();
        long after = directory.state(sessionId).map(SessionState::lastSeq).orElse(0L);
        // Subscribed before sending, so the answer cannot slip past between the send and the subscription.
        Runnable unsubscribe = directory.subscribe(sessionId, after, new SessionDirectory.Subscriber() {
            @Override
            public void onEvent(EventEnvelope event) {
                seen.add(event);
            }

            @Override
            public void onDelta(StreamChunk chunk) {
            }
        });
        try {
            String inputId = inputs.send(sessionId, userId, new SessionInput.RunUserTool(callId, tool, arguments));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                EventEnvelope event = left <= 0 ? null : seen.poll(left, TimeUnit.NANOSECONDS);
                if (event == null) {
                    return new Outcome.TimedOut(timeout);
                }
                if (event.event() instanceof ToolCallCompleted c && c.callId().equals(callId)) {
                    return new Outcome.Completed(c);
                }
                if (event.event() instanceof InputRejected r && inputId.equals(r.inputId())) {
                    return new Outcome.Rejected(r.reason());
                }
            }
        } finally {
            unsubscribe.run();
        }
    }
}
