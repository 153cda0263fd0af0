package dev.agentbus.gateway.readmodels.sessionlist;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.TableProjection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Keeps the {@code sessions} table: loads the batch's sessions, folds the events into them, upserts the result. */
public final class SessionSummaryProjection implements TableProjection {
    static final String COLUMNS = "session_id, user_id, title, status, in_turn, created_at, updated_at, last_seq, "
            + "last_message, last_message_role, last_message_at, last_outcome, last_model, turns, model_calls, "
            + "prompt_tokens, completion_tokens, total_tokens, forked_from";

    private static final String UPSERT = "INSERT INTO sessions (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (session_id) DO UPDATE SET title = excluded.title, status = excluded.status, "
            + "in_turn = excluded.in_turn, "
            + "updated_at = excluded.updated_at, last_seq = excluded.last_seq, last_message = excluded.last_message, "
            + "last_message_role = excluded.last_message_role, last_message_at = excluded.last_message_at, "
            + "last_outcome = excluded.last_outcome, last_model = excluded.last_model, turns = excluded.turns, "
            + "model_calls = excluded.model_calls, prompt_tokens = excluded.prompt_tokens, "
            + "completion_tokens = excluded.completion_tokens, total_tokens = excluded.total_tokens";

    private final Map<String, SessionSummary> rows = new HashMap<>();
    private final Map<String, SessionSummary> changed = new LinkedHashMap<>();

    @Override
    public void load(Connection db, List<EventEnvelope> events) throws SQLException {
        String[] ids = events.stream().map(e -> Sql.clean(e.sessionId())).distinct().toArray(String[]::new);
        try (PreparedStatement s = db.prepareStatement(
                "SELECT " + COLUMNS + " FROM sessions WHERE session_id = ANY (?)")) {
            s.setArray(1, db.createArrayOf("text", ids));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    SessionSummary row = read(rs);
                    rows.put(row.sessionId(), row);
                }
            }
        }
    }

    @Override
    public void apply(EventEnvelope event) {
        SessionSummary before = rows.get(event.sessionId());
        SessionSummary after = SessionSummaries.evolve(before, event);
        if (after != null && after != before) {
            rows.put(after.sessionId(), after);
            changed.put(after.sessionId(), after);
        }
    }

    @Override
    public void save(Connection db) throws SQLException {
        if (changed.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement(UPSERT)) {
            for (SessionSummary r : changed.values()) {
                int i = 1;
                Sql.setText(s, i++, r.sessionId());
                Sql.setText(s, i++, r.userId());
                Sql.setText(s, i++, r.title());
                Sql.setText(s, i++, r.status().name());
                s.setBoolean(i++, r.inTurn());
                Sql.setInstant(s, i++, r.createdAt());
                Sql.setInstant(s, i++, r.updatedAt());
                s.setLong(i++, r.lastSeq());
                Sql.setText(s, i++, r.lastMessage());
                Sql.setText(s, i++, r.lastMessageRole());
                Sql.setInstant(s, i++, r.lastMessageAt());
                Sql.setText(s, i++, r.lastOutcome() == null ? null : r.lastOutcome().name());
                Sql.setText(s, i++, r.lastModel());
                s.setInt(i++, r.turns());
                s.setInt(i++, r.modelCalls());
                s.setLong(i++, r.usage().promptTokens());
                s.setLong(i++, r.usage().completionTokens());
                s.setLong(i++, r.usage().totalTokens());
                Sql.setText(s, i, r.forkedFrom());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    static SessionSummary read(ResultSet rs) throws SQLException {
        String outcome = rs.getString("last_outcome");
        return new SessionSummary(rs.getString("session_id"), rs.getString("user_id"), rs.getString("title"),
                SessionStatus.valueOf(rs.getString("status")), rs.getBoolean("in_turn"),
                Sql.getInstant(rs, "created_at"), Sql.getInstant(rs, "updated_at"), rs.getLong("last_seq"),
                rs.getString("last_message"), rs.getString("last_message_role"),
                Sql.getInstant(rs, "last_message_at"), outcome == null ? null : TurnOutcome.valueOf(outcome),
                rs.getString("last_model"), rs.getInt("turns"), rs.getInt("model_calls"),
                new TokenUsage(rs.getLong("prompt_tokens"), rs.getLong("completion_tokens"),
                        rs.getLong("total_tokens")), rs.getString("forked_from"));
    }
}
