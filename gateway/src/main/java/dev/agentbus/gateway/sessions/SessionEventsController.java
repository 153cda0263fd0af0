package dev.agentbus.gateway.sessions;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import java.time.Duration;

/**
 * A session's events as Server-Sent Events: every event after {@code Last-Event-ID} (or {@code ?after=N}) with the
 * SSE id set to its seq, then live ones as they are recorded; token and output deltas as {@code delta} events
 * (no id: they are not part of the log); a {@code ping} every 15 s so idle connections stay open.
 */
@Controller("/api/v1/sessions")
class SessionEventsController {
    private static final Duration PING = Duration.ofSeconds(15);

    private final SessionDirectory directory;
    private final SessionAccess sessions;

    public SessionEventsController(SessionDirectory directory, SessionAccess sessions) {
        this.directory = directory;
        this.sessions = sessions;
    }

    @Get(value = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM)
    public Publisher<Event<String>> events(String id, @Nullable @Header("Last-Event-ID") String lastEventId,
                                           @Nullable @QueryValue Long after, HttpRequest<?> request) {
        SessionViewer viewer = sessions.viewer(id, request);
        long from = resumePoint(lastEventId, after);
        Flux<Event<String>> log = Flux.create(sink -> {
            Runnable unsubscribe = directory.subscribe(id, from, new SessionDirectory.Subscriber() {
                @Override
                public void onEvent(EventEnvelope e) {
                    var node = EventCodec.eventNode(viewer.event(e));
                    sink.next(Event.of(node.toString()).id(Long.toString(e.seq())).name(node.get("type").asText()));
                }

                @Override
                public void onDelta(StreamChunk chunk) {
                    sink.next(Event.of(new String(EventCodec.encodeValue(chunk),
                            java.nio.charset.StandardCharsets.UTF_8)).name("delta"));
                }
            });
            sink.onDispose(unsubscribe::run);
        }, FluxSink.OverflowStrategy.BUFFER);
        Flux<Event<String>> pings = Flux.interval(PING, PING).map(i -> Event.of("{}").name("ping"));
        return dev.agentbus.gateway.auth.OpenConnections.endWhenRevoked(request, Flux.merge(log, pings));
    }

    private static long resumePoint(String lastEventId, Long after) {
        if (lastEventId != null && !lastEventId.isBlank()) {
            try {
                return Long.parseLong(lastEventId.trim());
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("Last-Event-ID must be a seq number, got '" + lastEventId + "'");
            }
        }
        if (after != null && after < 0) {
            throw ApiException.badRequest("after must be 0 or more");
        }
        return after == null ? 0 : after;
    }
}
