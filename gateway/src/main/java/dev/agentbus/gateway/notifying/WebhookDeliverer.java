package dev.agentbus.gateway.notifying;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.notifying.NotificationItem;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.Sql;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * POSTs each notification to its user's webhook, as JSON, on its own threads: the projector only marks a row
 * pending, so a slow or dead webhook never holds up the log or the read models. Each round claims the due rows (a
 * lease: their next attempt moves past the time-out, so another gateway replica does not take them meanwhile), POSTs
 * them with a bounded time-out, and records the outcome: delivered, or tried again after a backoff that doubles, and
 * after the last attempt failed, with the reason shown in the user's settings and the log. The URL is the user's
 * choice, so each delivery goes through the {@link OutgoingPolicy} first (an internal address is refused, and nothing
 * is sent), and carries its hop marker; redirects are not followed.
 */
@Context
final class WebhookDeliverer {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookDeliverer.class);
    private static final int BATCH = 50;

    private record Due(NotificationItem item, String userId, String url, int attempts) {
    }

    private final ReadModelDatabase database;
    private final NotificationSettings settings;
    private final HttpClient http;
    private final OutgoingPolicy outgoing;
    private final ExecutorService posts = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("gateway-webhooks").factory());

    WebhookDeliverer(ReadModelDatabase database, NotificationSettings settings, OutgoingSettings outgoing) {
        this.outgoing = outgoing.policy();
        this.database = database;
        this.settings = settings;
        this.http = HttpClient.newBuilder().connectTimeout(settings.webhookTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        if (database.configured()) {
            long every = settings.pollInterval().toMillis();
            timer.scheduleWithFixedDelay(this::round, every, every, TimeUnit.MILLISECONDS);
        }
    }

    private void round() {
        try {
            for (Due due : claim()) {
                posts.submit(() -> deliver(due));
            }
        } catch (RuntimeException e) {
            LOG.debug("webhooks: round failed: {}", e.toString());
        }
    }

    private List<Due> claim() {
        Instant lease = Instant.now().plus(settings.webhookTimeout().multipliedBy(3));
        return database.query(db -> {
            List<Due> out = new ArrayList<>();
            try (PreparedStatement s = db.prepareStatement("UPDATE notifications n SET webhook_next_at = ? "
                    + "FROM notification_settings s WHERE n.id IN (SELECT id FROM notifications "
                    + "WHERE webhook_state = 'pending' AND webhook_next_at <= now() ORDER BY id LIMIT " + BATCH
                    + " FOR UPDATE SKIP LOCKED) AND s.user_id = n.user_id RETURNING n.id, n.user_id, n.session_id, "
                    + "n.seq, n.kind, n.title, n.body, n.created_at, n.read, n.webhook_attempts, s.webhook_url")) {
                Sql.setInstant(s, 1, lease);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Due(Notifications.item(rs), rs.getString("user_id"), rs.getString("webhook_url"),
                                rs.getInt("webhook_attempts")));
                    }
                }
            }
            return out;
        });
    }

    private void deliver(Due due) {
        if (due.url() == null) {
            finish(due, "skipped", null); // the user removed the webhook meanwhile
            return;
        }
        String failure;
        try {
            // Checked before every delivery, not only when saved: the name may point elsewhere by now.
            URI url = outgoing.check(due.url());
            HttpRequest request = HttpRequest.newBuilder(url).timeout(settings.webhookTimeout())
                    .header("Content-Type", "application/json").header("User-Agent", "agentbus-notifications")
                    .header(OutgoingPolicy.HOP_HEADER, OutgoingPolicy.HOP_VALUE)
                    .POST(HttpRequest.BodyPublishers.ofString(ApiJson.write(due.item()), StandardCharsets.UTF_8))
                    .build();
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            failure = status / 100 == 2 ? null : "the webhook answered " + OutgoingPolicy.statusReason(status);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (OutgoingRefused e) {
            failure = "the webhook is refused: " + e.getMessage();
        } catch (Exception e) {
            failure = "the webhook could not be reached: " + e;
        }
        if (failure == null) {
            finish(due, "delivered", null);
        } else if (due.attempts() + 1 >= settings.webhookAttempts()) {
            LOG.warn("webhook of {} gave up on notification {} after {} attempts: {}", due.userId(),
                    due.item().id(), due.attempts() + 1, failure);
            finish(due, "failed", failure);
        } else {
            Duration backoff = settings.webhookBackoff().multipliedBy(1L << Math.min(due.attempts(), 16));
            LOG.info("webhook of {} failed for notification {} (attempt {}), again in {}: {}", due.userId(),
                    due.item().id(), due.attempts() + 1, backoff, failure);
            retry(due, Instant.now().plus(backoff), failure);
        }
    }

    private void finish(Due due, String state, String failure) {
        update(due, "UPDATE notifications SET webhook_state = ?, webhook_attempts = webhook_attempts + 1, "
                + "webhook_next_at = NULL WHERE id = ?", state, null, failure);
    }

    private void retry(Due due, Instant next, String failure) {
        update(due, "UPDATE notifications SET webhook_state = ?, webhook_attempts = webhook_attempts + 1, "
                + "webhook_next_at = ? WHERE id = ?", "pending", next, failure);
    }

    private void update(Due due, String sql, String state, Instant next, String failure) {
        try {
            database.query(db -> {
                try (PreparedStatement s = db.prepareStatement(sql)) {
                    s.setString(1, state);
                    if (next != null) {
                        Sql.setInstant(s, 2, next);
                        s.setLong(3, due.item().id());
                    } else {
                        s.setLong(2, due.item().id());
                    }
                    s.executeUpdate();
                }
                // The settings show how the webhook fares: its last failure until a delivery succeeds.
                try (PreparedStatement s = db.prepareStatement(failure == null
                        ? "UPDATE notification_settings SET webhook_ok_at = now(), webhook_error = NULL, "
                        + "webhook_error_at = NULL WHERE user_id = ?"
                        : "UPDATE notification_settings SET webhook_error = ?, webhook_error_at = now() "
                        + "WHERE user_id = ?")) {
                    int i = 1;
                    if (failure != null) {
                        s.setString(i++, Sql.cut(failure, 500));
                    }
                    s.setString(i, due.userId());
                    if (!"skipped".equals(state)) {
                        s.executeUpdate();
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            // The lease runs out and the row is tried again: at least once, never lost.
            LOG.warn("webhook: could not record the outcome of notification {}: {}", due.item().id(), e.toString());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        posts.shutdownNow();
    }
}
