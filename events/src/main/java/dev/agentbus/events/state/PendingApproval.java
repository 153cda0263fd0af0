package dev.agentbus.events.state;

import dev.agentbus.events.tools.Risk;

import java.time.Instant;

/**
 * A tool call the model asked for that waits for a person's decision ({@code approval.requested.v1}).
 *
 * @param arguments the call's arguments, a JSON object as a string
 * @param reason    why it needs approval, for the person deciding
 * @param expiresAt when it counts as denied if nobody decided
 */
public record PendingApproval(String callId, String tool, String arguments, Risk risk, String reason,
                              Instant expiresAt) {
}
