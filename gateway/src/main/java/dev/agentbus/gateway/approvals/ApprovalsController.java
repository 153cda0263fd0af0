package dev.agentbus.gateway.approvals;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * A person's decision on a tool call waiting for approval: {@code POST /api/v1/sessions/{id}/approvals/{callId}}.
 * Anyone who may write the session decides; the decision goes to the orchestrator as {@code decide_approval.v1},
 * which records it exactly once. See docs/api.md#approvals.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class ApprovalsController {
    /** What people write, and what the log records. */
    private static final DecisionWords DECISIONS = new DecisionWords(Map.of(
            "approve", ApprovalDecision.APPROVED,
            "deny", ApprovalDecision.DENIED,
            "always", ApprovalDecision.ALWAYS), "approve, deny or always");

    private final SessionAccess sessions;
    private final InputSender inputs;

    ApprovalsController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    /** {@code decision}: approve, deny or always; {@code note}: optional, told to the model on a denial. */
    public record DecisionRequest(@Nullable String decision, @Nullable String note) {
    }

    @Post("/{id}/approvals/{callId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> decide(String id, String callId, @Body @Nullable DecisionRequest body,
                                       HttpRequest<?> request) {
        // Access first: someone who may not write the session learns nothing about it, not even that a body is bad.
        SessionState state = sessions.writable(id, request);
        ApprovalDecision decision = DECISIONS.decision(body == null ? null : body.decision());
        String note = DecisionWords.note(body.note());
        // Early, from the gateway's view of the log; the decider checks again and records one decision only.
        if (state.pendingApproval(callId).isEmpty()) {
            throw new ApiException(HttpStatus.CONFLICT, "no approval is pending for call " + callId + " in session "
                    + id);
        }
        String inputId = inputs.send(id, userOf(request), new SessionInput.DecideApproval(callId, decision, note));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
