package dev.agentbus.gateway.mcp;

import dev.agentbus.events.state.PendingApproval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code run_task} and {@code await_task} answer: the session the turn ran in, where it stands, and the agent's
 * final answer once there is one. {@link #text()} is what a model reads (MCP clients show tool results as text);
 * {@link #structured()} the same for programs, as the tool result's {@code structuredContent}.
 *
 * @param status    {@code completed}, {@code cancelled}, {@code iteration_cap}, {@code loop_detected} or {@code error}
 *                  (the turn ended so); {@code awaiting_approval}; {@code running} (the wait ran out, the turn goes
 *                  on); {@code refused} (the message was not taken); {@code idle} (no turn has run yet)
 * @param answer    the agent's final answer; null until the turn ends with one
 * @param message   why a turn failed or stopped, or what to do next; null when the answer says it all
 * @param approvals the calls waiting for a person's decision ({@code awaiting_approval} only)
 */
record TaskReport(String sessionId, String status, String answer, String message, List<PendingApproval> approvals) {

    TaskReport {
        approvals = approvals == null ? List.of() : List.copyOf(approvals);
    }

    static TaskReport of(String sessionId, TaskProgress.Outcome outcome, String webHint) {
        return switch (outcome) {
            case TaskProgress.Outcome.Ended e when e.outcome() == null ->
                    new TaskReport(sessionId, "idle", null, "no turn has run in this session yet", null);
            case TaskProgress.Outcome.Ended e -> new TaskReport(sessionId, e.outcome().name().toLowerCase(),
                    e.answer(), e.message(), null);
            case TaskProgress.Outcome.AwaitingApproval a -> new TaskReport(sessionId, "awaiting_approval", null,
                    "the agent is waiting for a person to approve " + (a.approvals().size() == 1 ? "a call"
                            : a.approvals().size() + " calls") + " before it goes on. Approve or deny in the "
                            + "Agentbus web UI, with `agentbus` or with POST " + webHint + "/approvals/{callId} "
                            + "{\"decision\":\"approve\"}; then call await_task with this session_id for the answer",
                    a.approvals());
            case TaskProgress.Outcome.Refused r -> new TaskReport(sessionId, "refused", null, r.reason(), null);
        };
    }

    static TaskReport stillRunning(String sessionId, int waitedSeconds) {
        return new TaskReport(sessionId, "running", null, "the turn is still running after " + waitedSeconds
                + " s and goes on; call await_task with this session_id to wait for its answer", null);
    }

    /** A failure of the task, not a result to build on: the tool result says {@code isError}. */
    boolean failed() {
        return status.equals("error") || status.equals("refused");
    }

    String text() {
        StringBuilder text = new StringBuilder();
        if (answer != null && !answer.isBlank()) {
            text.append(answer).append("\n\n");
        }
        if (message != null && !message.isBlank()) {
            text.append(message).append("\n\n");
        }
        for (PendingApproval a : approvals) {
            text.append("- ").append(a.tool()).append(' ').append(a.arguments()).append(" (callId ")
                    .append(a.callId()).append(a.reason() == null ? "" : "; " + a.reason()).append(")\n");
        }
        if (!approvals.isEmpty()) {
            text.append('\n');
        }
        return text.append("[session_id: ").append(sessionId).append(", status: ").append(status).append(']')
                .toString();
    }

    Map<String, Object> structured() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sessionId", sessionId);
        out.put("status", status);
        out.put("answer", answer);
        out.put("message", message);
        out.put("approvals", approvals.stream().map(a -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("callId", a.callId());
            one.put("tool", a.tool());
            one.put("arguments", a.arguments());
            one.put("reason", a.reason());
            one.put("expiresAt", a.expiresAt() == null ? null : a.expiresAt().toString());
            return one;
        }).toList());
        return out;
    }
}
