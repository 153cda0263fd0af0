package dev.agentbus.events.state;

/** One tool call and, once it is answered, its result. */
public record ToolCallView(String callId, String name, String arguments, Status status, Boolean ok, String output,
                           String error, String diff, boolean truncated, long durationMs, boolean interrupted,
                           String worker) {
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
        return new ToolCallView(callId, name, arguments, Status.PROPOSED, null, null, null, null, false, 0, false, null);
    }

    ToolCallView withStatus(Status s) {
        return new ToolCallView(callId, name, arguments, s, ok, output, error, diff, truncated, durationMs,
                interrupted, worker);
    }

    ToolCallView started(String byWorker) {
        return new ToolCallView(callId, name, arguments, Status.STARTED, ok, output, error, diff, truncated,
                durationMs, interrupted, byWorker);
    }

    ToolCallView completed(boolean isOk, String out, String err, String d, boolean trunc, long ms, boolean intr) {
        return new ToolCallView(callId, name, arguments, Status.COMPLETED, isOk, out, err, d, trunc, ms, intr, worker);
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
