package dev.agentbus.gateway.openai;

import dev.agentbus.events.Json;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.sse.Event;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The agent behind OpenAI's chat completions API, so any chat client (the {@code openai} SDKs, Open WebUI,
 * LibreChat, Continue) can drive it: {@code POST /v1/chat/completions}, streamed or not, and {@code GET /v1/models}.
 * One request is one agent turn; the agent's tool calls show as reasoning, never as tool calls for the client to
 * run. The session the turn ran in is in the {@code X-Agentbus-Session} response header. See docs/api.md.
 */
@Controller("/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
class ChatCompletionsController {
    static final String SESSION_HEADER = "X-Agentbus-Session";
    /** How long a request that does not stream waits for its turn; the turn itself goes on after. */
    static final Duration TURN_WAIT = Duration.ofMinutes(10);

    private final AgentTurns turns;

    ChatCompletionsController(SessionDirectory directory, InputSender inputs) {
        this.turns = new AgentTurns(directory, inputs);
    }

    @Get("/models")
    @Produces(MediaType.APPLICATION_JSON)
    String models() {
        return json(OpenAiWire.ModelList.of(List.of(OpenAiWire.Model.agent())));
    }

    @Post(value = "/chat/completions", consumes = MediaType.ALL, produces = {MediaType.APPLICATION_JSON,
            MediaType.TEXT_EVENT_STREAM})
    HttpResponse<?> complete(@Body @Nullable String body, @Nullable @Header(SESSION_HEADER) String session,
                             HttpRequest<?> request) throws InterruptedException {
        ChatRequest chat = ChatRequest.parse(body);
        String id = "chatcmpl-" + UUID.randomUUID().toString().replace("-", "");
        long created = Instant.now().getEpochSecond();
        return chat.stream() ? streamed(userOf(request), session, chat, id, created)
                : whole(userOf(request), session, chat, id, created);
    }

    private HttpResponse<?> streamed(String caller, String session, ChatRequest chat, String id, long created)
            throws InterruptedException {
        // A sink that buffers: the turn's transcript may come before the client reads, and must not be lost.
        var sink = Sinks.many().unicast().<Event<String>>onBackpressureBuffer();
        sink.tryEmitNext(Event.of(json(OpenAiWire.Chunk.delta(id, created, new OpenAiWire.Delta("assistant", "",
                null)))));
        AgentTurns.Started started = turns.start(caller, session, chat, output -> {
            synchronized (sink) {
                switch (output) {
                    case TurnTranscript.Output.Content c -> sink.tryEmitNext(Event.of(json(
                            OpenAiWire.Chunk.delta(id, created, new OpenAiWire.Delta(null, c.text(), null)))));
                    case TurnTranscript.Output.Reasoning r -> sink.tryEmitNext(Event.of(json(
                            OpenAiWire.Chunk.delta(id, created, new OpenAiWire.Delta(null, null, r.text())))));
                    case TurnTranscript.Output.Finished f -> {
                        if (f.error() != null) {
                            sink.tryEmitNext(Event.of(json(OpenAiWire.ErrorBody.of(f.error(), "server_error",
                                    null))));
                        } else {
                            sink.tryEmitNext(Event.of(json(OpenAiWire.Chunk.finish(id, created, f.finishReason()))));
                            if (chat.includeUsage()) {
                                sink.tryEmitNext(Event.of(json(OpenAiWire.Chunk.usage(id, created, f.usage()))));
                            }
                        }
                        sink.tryEmitNext(Event.of("[DONE]"));
                        sink.tryEmitComplete();
                    }
                }
            }
        });
        Flux<Event<String>> events = sink.asFlux().doFinally(signal -> started.unfollow().run());
        return HttpResponse.ok(events).contentType(MediaType.TEXT_EVENT_STREAM_TYPE)
                .header(SESSION_HEADER, started.sessionId());
    }

    private HttpResponse<?> whole(String caller, String session, ChatRequest chat, String id, long created)
            throws InterruptedException {
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        CompletableFuture<TurnTranscript.Output.Finished> end = new CompletableFuture<>();
        AgentTurns.Started started = turns.start(caller, session, chat, output -> {
            switch (output) {
                case TurnTranscript.Output.Content c -> content.append(c.text());
                case TurnTranscript.Output.Reasoning r -> reasoning.append(r.text());
                case TurnTranscript.Output.Finished f -> end.complete(f);
            }
        });
        try {
            TurnTranscript.Output.Finished f = end.get(TURN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (f.error() != null) {
                throw new OpenAiException(HttpStatus.BAD_GATEWAY, "server_error", f.error(), null);
            }
            // Read after the end: the listener ran on the follower threads, and the future's completion publishes
            // what it appended.
            OpenAiWire.Message message = new OpenAiWire.Message("assistant", content.toString(),
                    reasoning.isEmpty() ? null : reasoning.toString());
            return HttpResponse.ok(json(OpenAiWire.Completion.of(id, created, message, f.finishReason(), f.usage())))
                    .contentType(MediaType.APPLICATION_JSON_TYPE).header(SESSION_HEADER, started.sessionId());
        } catch (ExecutionException e) {
            throw new IllegalStateException("the turn's follower failed", e.getCause());
        } catch (TimeoutException e) {
            throw new OpenAiException(HttpStatus.GATEWAY_TIMEOUT, "timeout", "the turn took longer than "
                    + TURN_WAIT.toMinutes() + " minutes; it goes on, and its events are at /api/v1/sessions/"
                    + started.sessionId() + "/events", null);
        } finally {
            started.unfollow().run();
        }
    }

    @Error(exception = OpenAiException.class)
    HttpResponse<String> refused(OpenAiException e) {
        return HttpResponse.<String>status(e.status()).contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(json(e.body()));
    }

    private static String json(Object value) {
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }
}
