package dev.agentbus.gateway.planning;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.PlanningView;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.planning.Plan;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.approvals.DecisionWords;
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
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.Map;
import java.util.Optional;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The agent's todos, plan and task state ({@code GET /api/v1/sessions/{id}/planning}), and the user's decision on a
 * plan that waits for approval in plan-first mode ({@code POST /api/v1/sessions/{id}/plan/decision}). A plan's
 * approval is the approval of its {@code plan_create} call, so the decision travels as {@code decide_approval.v1}
 * for that call, like any approval, and the orchestrator records it exactly once. See docs/api.md#plans.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class PlanningController {
    /** What people write, and what the log records. */
    private static final DecisionWords DECISIONS = new DecisionWords(Map.of(
            "approve", ApprovalDecision.APPROVED,
            "reject", ApprovalDecision.DENIED), "approve or reject");

    private final SessionAccess sessions;
    private final InputSender inputs;

    PlanningController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    /** {@code decision}: approve or reject; {@code note}: optional, told to the model on a rejection. */
    public record PlanDecisionRequest(@Nullable String decision, @Nullable String note) {
    }

    @Get("/{id}/planning")
    @Produces(MediaType.APPLICATION_JSON)
    public String show(String id, HttpRequest<?> request) {
        return ApiJson.write(PlanningView.of(sessions.readable(id, request).planning()));
    }

    @Post("/{id}/plan/decision")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> decide(String id, @Body @Nullable PlanDecisionRequest body, HttpRequest<?> request) {
        // Access first: someone who may not write the session learns nothing about it, not even that a body is bad.
        SessionState state = sessions.writable(id, request);
        ApprovalDecision decision = DECISIONS.decision(body == null ? null : body.decision());
        String note = DecisionWords.note(body.note());
        // Early, from the gateway's view of the log; the decider checks again and records one decision only.
        Optional<Plan> proposed = state.planning().proposedPlan()
                .filter(p -> state.pendingApproval(p.callId()).isPresent());
        if (proposed.isEmpty()) {
            throw new ApiException(HttpStatus.CONFLICT, "no plan waits for approval in session " + id);
        }
        String inputId = inputs.send(id, userOf(request),
                new SessionInput.DecideApproval(proposed.get().callId(), decision, note));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
