package dev.agentbus.gateway.readmodels.auditing;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.TableProjection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Keeps {@code audit_tool_calls}: loads the batch's calls, folds the events with {@link AuditTrail}, upserts. */
public final class AuditProjection implements TableProjection {
    static final String COLUMNS = "session_id, call_id, user_id, tool, arguments, status, by_user, worker, "
            + "requested_at, started_at, completed_at, duration_ms, error, requested_seq, completed_seq";

    private static final String UPSERT = "INSERT INTO audit_tool_calls (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (session_id, call_id) DO UPDATE SET status = excluded.status, worker = excluded.worker, "
            + "started_at = excluded.started_at, completed_at = excluded.completed_at, "
            + "duration_ms = excluded.duration_ms, error = excluded.error, completed_seq = excluded.completed_seq";

    /** A call is identified by its session and its id: the model chooses ids, unique only within a session. */
    private record Key(String sessionId, String callId) {
    }

    private final Map<Key, AuditRecord> rows = new HashMap<>();
    private final Map<Key, AuditRecord> changed = new LinkedHashMap<>();

    @Override
    public void load(Connection db, List<EventEnvelope> events) throws SQLException {
        Set<Key> keys = new LinkedHashSet<>();
        for (EventEnvelope e : events) {
            callIds(e).forEach(id -> keys.add(new Key(e.sessionId(), id)));
        }
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement("SELECT " + COLUMNS + " FROM audit_tool_calls a "
                + "JOIN unnest(?::text[], ?::text[]) AS k(session_id, call_id) USING (session_id, call_id)")) {
            s.setArray(1, db.createArrayOf("text", keys.stream().map(k -> Sql.clean(k.sessionId())).toArray()));
            s.setArray(2, db.createArrayOf("text", keys.stream().map(k -> Sql.clean(k.callId())).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    AuditRecord r = read(rs);
                    rows.put(new Key(r.sessionId(), r.callId()), r);
                }
            }
        }
    }

    @Override
    public void apply(EventEnvelope event) {
        for (AuditRecord r : AuditTrail.evolve(id -> rows.get(new Key(event.sessionId(), id)), event)) {
            Key key = new Key(r.sessionId(), r.callId());
            rows.put(key, r);
            changed.put(key, r);
        }
    }

    @Override
    public void save(Connection db) throws SQLException {
        if (changed.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement(UPSERT)) {
            for (AuditRecord r : changed.values()) {
                int i = 1;
                Sql.setText(s, i++, r.sessionId());
                Sql.setText(s, i++, r.callId());
                Sql.setText(s, i++, r.userId());
                Sql.setText(s, i++, r.tool());
                Sql.setText(s, i++, r.arguments());
                Sql.setText(s, i++, r.status().wireName());
                s.setBoolean(i++, r.byUser());
                Sql.setText(s, i++, r.worker());
                Sql.setInstant(s, i++, r.requestedAt());
                Sql.setInstant(s, i++, r.startedAt());
                Sql.setInstant(s, i++, r.completedAt());
                Sql.setLong(s, i++, r.durationMs());
                Sql.setText(s, i++, r.error());
                s.setLong(i++, r.requestedSeq());
                Sql.setLong(s, i, r.completedSeq());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** The call ids an event is about. */
    private static List<String> callIds(EventEnvelope e) {
        return switch (e.event()) {
            case ModelCallCompleted m -> {
                List<String> ids = new ArrayList<>();
                for (ToolCallSpec call : m.toolCalls()) {
                    if (call.id() != null) {
                        ids.add(call.id());
                    }
                }
                yield ids;
            }
            case ToolCallRequested r -> listOf(r.callId());
            case ToolCallStarted s -> listOf(s.callId());
            case ToolCallCompleted c -> listOf(c.callId());
            default -> List.of();
        };
    }

    private static List<String> listOf(String callId) {
        return callId == null ? List.of() : List.of(callId);
    }

    static AuditRecord read(ResultSet rs) throws SQLException {
        return new AuditRecord(rs.getString("session_id"), rs.getString("call_id"), rs.getString("user_id"),
                rs.getString("tool"), rs.getString("arguments"), AuditStatus.fromWire(rs.getString("status")),
                rs.getBoolean("by_user"), rs.getString("worker"), Sql.getInstant(rs, "requested_at"),
                Sql.getInstant(rs, "started_at"), Sql.getInstant(rs, "completed_at"), Sql.getLong(rs, "duration_ms"),
                rs.getString("error"), rs.getLong("requested_seq"), Sql.getLong(rs, "completed_seq"));
    }
}
