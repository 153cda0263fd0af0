package dev.agentbus.gateway.notifying;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.gateway.readmodels.TableProjection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns events of the session log into rows of {@code notifications}, inside the projector's transaction, by the
 * {@link NotificationRules} and each owner's choices. It only writes rows: delivery (the routes, the live streams,
 * the webhook) reads them afterwards, so nothing here can slow the log down or fail because a person's webhook does.
 */
public final class NotificationProjection implements TableProjection {
    private final Clock clock;
    private final Map<String, UserChoices> choices = new HashMap<>();
    private final Map<String, String> titles = new HashMap<>();
    private final List<Notification> made = new ArrayList<>();

    public NotificationProjection() {
        this(Clock.systemUTC());
    }

    NotificationProjection(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void load(Connection db, List<EventEnvelope> events) throws SQLException {
        Set<String> users = new LinkedHashSet<>();
        Set<String> sessions = new LinkedHashSet<>();
        for (EventEnvelope e : events) {
            if (mayNotify(e.event()) && e.userId() != null) {
                users.add(e.userId());
                sessions.add(e.sessionId());
            }
        }
        if (users.isEmpty()) {
            return;
        }
        choices.putAll(NotificationTables.choices(db, users));
        try (PreparedStatement s = db.prepareStatement(
                "SELECT session_id, title FROM sessions WHERE session_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("text", sessions.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    titles.put(rs.getString("session_id"), rs.getString("title"));
                }
            }
        }
    }

    @Override
    public void apply(EventEnvelope e) {
        switch (e.event()) {
            case SessionEvent.SessionCreated c -> titles.put(e.sessionId(), c.title());
            case SessionEvent.SessionRenamed r -> titles.put(e.sessionId(), r.title());
            case SessionEvent.SessionForked f -> titles.put(e.sessionId(), f.title());
            default -> {
                if (mayNotify(e.event())) {
                    NotificationRules.of(e, titles.get(e.sessionId()),
                            choices.getOrDefault(e.userId(), UserChoices.DEFAULTS).on(), clock.instant())
                            .ifPresent(made::add);
                }
            }
        }
    }

    @Override
    public void save(Connection db) throws SQLException {
        if (!made.isEmpty()) {
            NotificationTables.insert(db, made, choices, Instant.now(clock));
        }
    }

    private static boolean mayNotify(SessionEvent event) {
        return event instanceof SessionEvent.TurnEnded || event instanceof SessionEvent.WaitEnded
                || event instanceof SessionEvent.ApprovalRequested || event instanceof SessionEvent.NotificationPosted;
    }
}
