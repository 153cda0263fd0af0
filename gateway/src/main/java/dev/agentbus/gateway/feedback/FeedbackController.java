package dev.agentbus.gateway.feedback;

import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.insights.AnswerFeedback;
import dev.agentbus.events.session.Vote;
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

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * {@code POST /api/v1/sessions/{id}/feedback {"seq": 5, "vote": "up"}}: a thumbs up or down on an answer. The vote
 * becomes {@code give_feedback.v1}, which the orchestrator records as {@code feedback.recorded.v1}; the memory-service
 * then moves the scores of the insights that shaped that answer (docs/memory.md#feedback). Anyone who may write the
 * session may vote.
 */
@Controller("/api/v1/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class FeedbackController {
    private final SessionAccess sessions;
    private final InputSender inputs;

    FeedbackController(SessionAccess sessions, InputSender inputs) {
        this.sessions = sessions;
        this.inputs = inputs;
    }

    public record FeedbackRequest(@Nullable Long seq, @Nullable String vote) {
    }

    @Post("/{id}/feedback")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> vote(String id, @Body @Nullable FeedbackRequest body, HttpRequest<?> request) {
        SessionState state = sessions.writable(id, request);
        if (body == null || body.seq() == null) {
            throw ApiException.badRequest("seq is required: the seq of the answer voted on");
        }
        Vote vote;
        try {
            vote = Vote.parse(body.vote());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (vote == null) {
            throw ApiException.badRequest("vote is required: \"up\" or \"down\"");
        }
        // Early, from the gateway's view of the log; the decider checks again.
        AnswerFeedback.refusal(state, body.seq(), vote).ifPresent(why -> {
            throw new ApiException(state.context().incognito() ? HttpStatus.CONFLICT : HttpStatus.BAD_REQUEST, why);
        });
        String inputId = inputs.send(id, userOf(request), new SessionInput.GiveFeedback(body.seq(), vote));
        return HttpResponse.accepted().body(ApiJson.write(new AcceptedInput(inputId)));
    }
}
