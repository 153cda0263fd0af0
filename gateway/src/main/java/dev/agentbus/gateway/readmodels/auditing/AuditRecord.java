package dev.agentbus.gateway.readmodels.auditing;

import java.time.Instant;

/**
 * One tool call in the audit log: who ran what, with which (redacted) arguments, how it ended and how long it took.
 *
 * @param userId       the session's owner
 * @param byUser       a person ran the tool directly (an upload, a download, a rewind); false: the model asked
 * @param arguments    the arguments as given, with secrets masked by SecretRedactor
 * @param status       requested, started, ok, failed, interrupted or refused
 * @param error        why it failed, was interrupted or was refused (redacted); null otherwise
 * @param requestedSeq the seq of the event that asked for the call
 * @param completedSeq the seq of its result, null while it has none
 */
record AuditRecord(String sessionId, String callId, String userId, String tool, String arguments,
                          AuditStatus status, boolean byUser, String worker, Instant requestedAt, Instant startedAt,
                          Instant completedAt, Long durationMs, String error, long requestedSeq, Long completedSeq) {

    AuditRecord started(String worker, Instant at) {
        return new AuditRecord(sessionId, callId, userId, tool, arguments, AuditStatus.STARTED, byUser, worker,
                requestedAt, at, completedAt, durationMs, error, requestedSeq, completedSeq);
    }

    AuditRecord completed(AuditStatus status, long durationMs, String error, Instant at, long seq) {
        return new AuditRecord(sessionId, callId, userId, tool, arguments, status, byUser, worker, requestedAt,
                startedAt, at, durationMs, error, requestedSeq, seq);
    }
}
