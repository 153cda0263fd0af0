package dev.agentbus.gateway.inbox;

import dev.agentbus.api.ApiJson;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/** The caller's inbox over HTTP, a thin adapter of {@link Inbox}. See docs/api.md "Inbox". */
@Controller("/api/v1/inbox")
@ExecuteOn(TaskExecutors.BLOCKING)
class InboxController {
    private final Inbox inbox;

    InboxController(Inbox inbox) {
        this.inbox = inbox;
    }

    /** {@code at}: an ISO-8601 time with a zone; absent for now. */
    public record SubmitRequest(@Nullable String text, @Nullable String at, @Nullable String title) {
    }

    @Post
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    HttpResponse<String> submit(@Body @Nullable SubmitRequest body, HttpRequest<?> request)
            throws InterruptedException {
        SubmitRequest b = body == null ? new SubmitRequest(null, null, null) : body;
        return HttpResponse.created(ApiJson.write(inbox.submit(userOf(request), b.title(), b.text(), b.at())));
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    String list(HttpRequest<?> request) {
        return ApiJson.write(inbox.list(userOf(request)));
    }

    @Delete("/{id}")
    HttpResponse<?> cancel(String id, HttpRequest<?> request) throws InterruptedException {
        inbox.cancel(userOf(request), id);
        return HttpResponse.noContent();
    }
}
