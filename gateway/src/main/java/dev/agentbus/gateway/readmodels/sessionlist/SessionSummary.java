package dev.agentbus.gateway.readmodels.sessionlist;

import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;

import java.time.Instant;

/**
 * One row of the sessions read model: what a list of sessions shows, kept up to date by {@link SessionSummaries}
 * from the log so a list never folds whole logs.
 *
 * @param inTurn          a turn is open; tells whether a session that stops waiting runs on or is idle
 * @param lastSeq         the seq of the latest event applied; an event at or below it is not applied again
 * @param lastMessage     the latest user message or assistant answer, cut to {@value SessionSummaries#PREVIEW_CHARS}
 *                        characters
 * @param lastMessageRole {@code user} or {@code assistant}
 */
record SessionSummary(String sessionId, String userId, String title, SessionStatus status, boolean inTurn,
                             Instant createdAt, Instant updatedAt, long lastSeq, String lastMessage,
                             String lastMessageRole, Instant lastMessageAt, TurnOutcome lastOutcome, String lastModel,
                             int turns, int modelCalls, TokenUsage usage, String forkedFrom) {
}
