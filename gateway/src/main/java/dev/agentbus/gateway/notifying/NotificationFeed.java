package dev.agentbus.gateway.notifying;

import dev.agentbus.api.notifying.NotificationItem;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * New notifications, live, for the streams of this gateway (SSE and WebSocket): it looks for rows it has not seen
 * yet every {@code agentbus.notifications.poll-interval} and hands each to the followers of its user. The projector
 * writes the rows in another thread (or another replica), so polling the table is what connects the two: one query
 * on the primary key per round.
 */
@Context
public final class NotificationFeed {
    private static final Logger LOG = LoggerFactory.getLogger(NotificationFeed.class);

    private final ReadModelDatabase database;
    private final Map<String, List<Consumer<NotificationItem>>> followers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("gateway-notification-feed").factory());
    private volatile long lastId = -1;

    NotificationFeed(ReadModelDatabase database, NotificationSettings settings) {
        this.database = database;
        if (database.configured()) {
            long every = settings.pollInterval().toMillis();
            timer.scheduleWithFixedDelay(this::poll, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Hands each new notification of the user to {@code follower} until the returned Runnable is run. */
    public Runnable follow(String user, Consumer<NotificationItem> follower) {
        followers.computeIfAbsent(user, u -> new CopyOnWriteArrayList<>()).add(follower);
        return () -> followers.computeIfPresent(user, (u, list) -> {
            list.remove(follower);
            return list.isEmpty() ? null : list;
        });
    }

    private void poll() {
        try {
            if (lastId < 0) {
                lastId = database.query(db -> {
                    try (PreparedStatement s = db.prepareStatement("SELECT coalesce(max(id), 0) FROM notifications");
                         ResultSet rs = s.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                });
            }
            long after = lastId;
            database.query(db -> {
                try (PreparedStatement s = db.prepareStatement("SELECT user_id, " + NotificationTables.COLUMNS
                        + " FROM notifications WHERE id > ? ORDER BY id LIMIT 500")) {
                    s.setLong(1, after);
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            NotificationItem item = Notifications.item(rs);
                            lastId = Math.max(lastId, item.id());
                            followers.getOrDefault(rs.getString("user_id"), List.of()).forEach(f -> f.accept(item));
                        }
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            // The database is away or not migrated yet: the next round tries again.
            LOG.debug("notifications: feed poll failed: {}", e.toString());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
