package dev.agentbus.events.state;

import java.time.Instant;

/** A wait the session is suspended on. callId is set when the wait tool asked for it, null for a WAIT: answer. */
public record PendingWait(String waitId, Instant until, String reason, String callId) {
}
