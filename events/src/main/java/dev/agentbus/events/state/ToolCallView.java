package dev.agentbus.events.state;

/**
 * One tool call and, once it is answered, its result.
 *
 * @param byUser     a person ran it directly (upload, download, rewind), not the model; it is not part of the
 *                   conversation the model sees
 * @param checkpoint the workspace checkpoint taken after it, null when it changed no file
 * @param refusal    why the safety layer refused it without running it, null when it ran
 */
public record ToolCallView(String callId, String name, String arguments, Status status, Boolean ok, String output,
                           String error, String diff, boolean truncated, long durationMs, boolean interrupted,
                           String worker, boolean byUser, String checkpoint, String refusal) {
    public enum Status {
        /** The model asked for it. */
        PROPOSED,
        /** Sent to the sandbox-worker. */
        REQUESTED,
        /** The worker said it is running it. */
        STARTED,
        /** Answered: see ok, output and error. */
        COMPLETED
    }

    static ToolCallView proposed(String callId, String name, String arguments) {
        return new ToolCallView(callId, name, arguments, Status.PROPOSED, null, null, null, null, false, 0, false, null,
                false, null, null);
    }

    static ToolCallView requestedByUser(String callId, String name, String arguments) {
        return new ToolCallView(callId, name, arguments, Status.REQUESTED, null, null, null, null, false, 0, false, null,
                true, null, null);
    }

    ToolCallView withStatus(Status s) {
        return new ToolCallView(callId, name, arguments, s, ok, output, error, diff, truncated, durationMs,
                interrupted, worker, byUser, checkpoint, refusal);
    }

    ToolCallView started(String byWorker) {
        return new ToolCallView(callId, name, arguments, Status.STARTED, ok, output, error, diff, truncated,
                durationMs, interrupted, byWorker, byUser, checkpoint, refusal);
    }

    ToolCallView completed(boolean isOk, String out, String err, String d, boolean trunc, long ms, boolean intr,
                           String checkpointId, String refusalReason) {
        return new ToolCallView(callId, name, arguments, Status.COMPLETED, isOk, out, err, d, trunc, ms, intr, worker,
                byUser, checkpointId, refusalReason);
    }

    /** The text the model reads as this call's result. */
    public String resultForModel() {
        if (Boolean.TRUE.equals(ok)) {
            return output == null ? "" : output;
        }
        String text = "ERROR: " + (error == null ? "failed" : error);
        return output == null || output.isEmpty() ? text : text + "\n" + output;
    }
}
