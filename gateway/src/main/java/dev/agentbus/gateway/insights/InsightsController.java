package dev.agentbus.gateway.insights;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentbus.api.ApiJson;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.api.insights.InsightList;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.api.insights.InsightView;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's memory insights over HTTP: list them with their score and sources, edit, disable, pin or protect one,
 * delete one, clear them all. A thin adapter of {@link UserInsights}; docs/memory.md has the routes with examples.
 */
@Controller("/api/v1/memory/insights")
@ExecuteOn(TaskExecutors.BLOCKING)
class InsightsController {
    private final UserInsights insights;
    private final Clock clock = Clock.systemUTC();

    InsightsController(UserInsights insights) {
        this.insights = insights;
    }

    /** A null field is left as it is; at least one must be given. */
    public record InsightEdit(@Nullable String text, @Nullable Boolean disabled, @Nullable Boolean pinned,
                              @JsonProperty("protected") @Nullable Boolean isProtected) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) {
        return list(insights.get(userOf(request)));
    }

    @Put("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String edit(@PathVariable String id, @Body @Nullable InsightEdit body, HttpRequest<?> request)
            throws InterruptedException {
        String user = userOf(request);
        insights.find(user, id);
        if (body == null || (body.text() == null && body.disabled() == null && body.pinned() == null
                && body.isProtected() == null)) {
            throw ApiException.badRequest("nothing to change: give text, disabled, pinned or protected");
        }
        if (body.text() != null && body.text().isBlank()) {
            throw ApiException.badRequest("text must not be blank; to remove an insight, DELETE it");
        }
        if (body.text() != null && body.text().strip().length() > Insight.MAX_TEXT_CHARS) {
            throw ApiException.badRequest("text is longer than " + Insight.MAX_TEXT_CHARS + " characters");
        }
        InsightSet next = insights.edit(user, id, body.text(), body.disabled(), body.pinned(), body.isProtected());
        // Deleted meanwhile (a clear from another tab): the edit changed nothing.
        Insight edited = next.find(id).orElseThrow(() -> ApiException.notFound("no insight " + id));
        return ApiJson.write(InsightView.of(edited, clock.instant()));
    }

    /** {@code waitSeconds}: how long to wait for the model's refinement, 0 to 120; absent: 60. */
    public record RefineRequest(@Nullable Integer waitSeconds) {
    }

    /**
     * The model merges duplicate and conflicting insights, all merges or none; protected ones stay as they are.
     * Answered with the new list once applied, or 202 with the request's id when the wait ran out (it still applies).
     */
    @Post("/refine")
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> refine(@Body @Nullable RefineRequest body, HttpRequest<?> request)
            throws InterruptedException {
        int wait = body == null || body.waitSeconds() == null ? 60 : body.waitSeconds();
        if (wait < 0 || wait > 120) {
            throw ApiException.badRequest("waitSeconds must be from 0 to 120");
        }
        var asked = insights.requestRefinement(userOf(request));
        var refined = insights.awaitRefined(asked, wait * 1000L);
        if (refined.isPresent()) {
            return HttpResponse.ok(list(refined.get()));
        }
        return HttpResponse.accepted().body(ApiJson.write(java.util.Map.of("requestId", asked.commandId(),
                "message", "the refinement is queued: the memory-service applies it when the model has answered "
                        + "(it needs distillation on)")));
    }

    @Delete("/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public String delete(@PathVariable String id, HttpRequest<?> request) throws InterruptedException {
        return list(insights.delete(userOf(request), id));
    }

    @Delete
    @Produces(MediaType.APPLICATION_JSON)
    public String clear(HttpRequest<?> request) throws InterruptedException {
        return list(insights.clear(userOf(request)));
    }

    private String list(InsightSet set) {
        return ApiJson.write(InsightList.of(set, clock.instant()));
    }
}
