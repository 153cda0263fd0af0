package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.TableProjection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps the {@code messages} table that full-text search reads: a row per user message and per assistant answer
 * with text. PostgreSQL computes the search document itself (a generated tsvector column with a GIN index).
 * Rows are keyed by session and seq, so applying an event twice adds nothing.
 *
 * <p>A fork's copied history is not indexed again: it is found in the session where it was said. A deleted
 * session's messages are removed from the index, so a search never finds what its owner deleted.
 */
public final class MessageIndexProjection implements TableProjection {
    /** One searchable message. */
    public record Row(String sessionId, long seq, String userId, String role, Instant time, String text) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final Set<String> deleted = new LinkedHashSet<>();

    /** The message an event adds to the index, or null: only people's messages and the model's answers count. */
    public static Row messageOf(EventEnvelope e) {
        return switch (e.event()) {
            case UserMessagePosted m when m.text() != null && !m.text().isBlank() ->
                    new Row(e.sessionId(), e.seq(), e.userId(), "user", e.time(), m.text());
            case ModelCallCompleted m when m.content() != null && !m.content().isBlank() ->
                    new Row(e.sessionId(), e.seq(), e.userId(), "assistant", e.time(), m.content());
            default -> null;
        };
    }

    @Override
    public void load(Connection db, List<EventEnvelope> events) {
        // Inserts only: nothing to read first.
    }

    @Override
    public void apply(EventEnvelope event) {
        if (event.event() instanceof SessionDeleted) {
            rows.removeIf(r -> r.sessionId().equals(event.sessionId()));
            deleted.add(event.sessionId());
            return;
        }
        Row row = messageOf(event);
        if (row != null) {
            rows.add(row);
        }
    }

    @Override
    public void save(Connection db) throws SQLException {
        insert(db);
        if (!deleted.isEmpty()) {
            try (PreparedStatement s = db.prepareStatement("DELETE FROM messages WHERE session_id = ANY (?)")) {
                s.setArray(1, db.createArrayOf("text", deleted.stream().map(Sql::clean).toArray(String[]::new)));
                s.executeUpdate();
            }
        }
    }

    private void insert(Connection db) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement("INSERT INTO messages (session_id, seq, user_id, role, time, "
                + "text) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, seq) DO NOTHING")) {
            for (Row r : rows) {
                Sql.setText(s, 1, r.sessionId());
                s.setLong(2, r.seq());
                Sql.setText(s, 3, r.userId());
                Sql.setText(s, 4, r.role());
                Sql.setInstant(s, 5, r.time());
                Sql.setText(s, 6, r.text());
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
