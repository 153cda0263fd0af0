package dev.agentbus.gateway.notifying;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.notifying.NotificationItem;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.Params;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's notifications over HTTP: the queue (unread first), read marks, the live stream (SSE: the unread ones
 * first, then new ones as they come) and the settings. See docs/api.md "Notifications".
 */
@Controller("/api/v1/me")
class NotificationsController {
    private static final Duration PING = Duration.ofSeconds(15);

    private final Notifications notifications;
    private final NotificationFeed feed;

    NotificationsController(Notifications notifications, NotificationFeed feed) {
        this.notifications = notifications;
        this.feed = feed;
    }

    public record ReadRequest(@Nullable Long upTo) {
    }

    public record SettingsRequest(@Nullable String webhookUrl, @Nullable List<String> on) {
    }

    @Get("/notifications")
    @Produces(MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    String list(@Nullable @QueryValue Integer limit, HttpRequest<?> request) {
        return ApiJson.write(notifications.list(userOf(request), Params.limit(limit, 50, Notifications.MAX_LIMIT)));
    }

    @Post("/notifications/read")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    String markRead(@Body @Nullable ReadRequest body, HttpRequest<?> request) {
        if (body == null || body.upTo() == null || body.upTo() < 1) {
            throw ApiException.badRequest("upTo is required: the id of the newest notification to mark read (1 or more)");
        }
        return ApiJson.write(Map.of("unread", notifications.markRead(userOf(request), body.upTo())));
    }

    @Get("/notification-settings")
    @Produces(MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    String settings(HttpRequest<?> request) {
        return ApiJson.write(notifications.settings(userOf(request)));
    }

    @Put("/notification-settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    String putSettings(@Body @Nullable SettingsRequest body, HttpRequest<?> request) {
        if (body == null) {
            throw ApiException.badRequest("a JSON body with webhookUrl and/or on is required");
        }
        return ApiJson.write(notifications.putSettings(userOf(request), body.webhookUrl(), body.on()));
    }

    /**
     * The unread notifications after {@code Last-Event-ID} (a notification id), oldest first, then each new one as it
     * is recorded; the SSE id is the notification id, the event name {@code notification}.
     */
    @Get(value = "/notifications/stream", produces = MediaType.TEXT_EVENT_STREAM)
    @ExecuteOn(TaskExecutors.BLOCKING)
    Publisher<Event<String>> stream(@Nullable @Header("Last-Event-ID") String lastEventId, HttpRequest<?> request) {
        String user = userOf(request);
        long after = after(lastEventId);
        List<NotificationItem> backlog = notifications.unreadAfter(user, after); // 503 now, not mid-stream
        Flux<Event<String>> live = Flux.create(sink -> {
            Object lock = new Object();
            long[] sent = {after};
            Runnable unfollow = feed.follow(user, item -> {
                synchronized (lock) {
                    if (item.id() > sent[0]) {
                        sent[0] = item.id();
                        sink.next(event(item));
                    }
                }
            });
            sink.onDispose(unfollow::run);
            synchronized (lock) {
                for (NotificationItem item : backlog) {
                    if (item.id() > sent[0]) {
                        sent[0] = item.id();
                        sink.next(event(item));
                    }
                }
            }
        }, FluxSink.OverflowStrategy.BUFFER);
        return dev.agentbus.gateway.auth.OpenConnections.endWhenRevoked(request,
                Flux.merge(live, Flux.interval(PING, PING).map(i -> Event.of("{}").name("ping"))));
    }

    private static Event<String> event(NotificationItem item) {
        return Event.of(ApiJson.write(item)).id(Long.toString(item.id())).name("notification");
    }

    private static long after(String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(lastEventId.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Last-Event-ID must be a notification id, got '" + lastEventId + "'");
        }
    }
}
