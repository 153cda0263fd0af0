package dev.agentbus.gateway.sessions;

import dev.agentbus.events.input.SessionInput.RunUserTool;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a sandbox tool for a person (upload, download, rewind) and waits for its answer: sends
 * {@code run_user_tool.v1}, then watches the session's log for the {@code tool_call.completed.v1} of that call, or
 * the {@code input.rejected.v1} of that input (a turn started in between). The request is durable once sent: if no
 * answer comes in time, the call still runs when a worker gets to it.
 */
public final class UserToolCalls {
    /** How a person's tool call ended, as far as the gateway waited. */
    public sealed interface Outcome {
        /** The worker ran it (or refused it); the event says how it went, {@code seq} is where it is in the log. */
        record Completed(ToolCallCompleted result, long seq) implements Outcome {
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

    public Outcome run(String sessionId, String userId, RunUserTool call, Duration timeout)
            throws InterruptedException {
        BlockingQueue<EventEnvelope> seen = new LinkedBlockingQueue<>();
        long after = directory.state(sessionId).map(SessionState::lastSeq).orElse(0L);
        // Subscribed before sending, so the answer cannot slip past between the send and the subscription; the
        // events are queued until the input id is known, so a rejection folded before send() returns is not lost.
        Runnable unsubscribe = directory.subscribe(sessionId, after, new SessionDirectory.Subscriber() {
            @Override
            public void onEvent(EventEnvelope event) {
                seen.add(event);
            }

            @Override
            public void onDelta(StreamChunk chunk) {
                // live output is not the answer
            }
        });
        try {
            String inputId = inputs.send(sessionId, userId, call);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                EventEnvelope event = left <= 0 ? null : seen.poll(left, TimeUnit.NANOSECONDS);
                if (event == null) {
                    return new Outcome.TimedOut(timeout);
                }
                if (event.event() instanceof ToolCallCompleted c && c.callId().equals(call.callId())) {
                    return new Outcome.Completed(c, event.seq());
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
