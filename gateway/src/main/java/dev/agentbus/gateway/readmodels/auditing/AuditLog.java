package dev.agentbus.gateway.readmodels.auditing;


import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** Queries the audit log: one user's tool calls, filtered, newest first for a page, oldest first for an export. */
final class AuditLog {

    /**
     * Which calls: always one user's; the other fields narrow it down when set.
     *
     * @param from first UTC day of {@code requested_at}, included
     * @param to   last UTC day of {@code requested_at}, included
     */
    public record Filter(String userId, String sessionId, String tool, AuditStatus status, LocalDate from,
                         LocalDate to) {
    }

    /** Reads the rows of an export one at a time, without holding them all in memory. */
    @FunctionalInterface
    public interface RowWriter {
        void write(AuditRecord record) throws java.io.IOException;
    }

    private AuditLog() {
    }

    public static List<AuditRecord> newest(Connection db, Filter filter, int limit) throws SQLException {
        try (PreparedStatement s = prepare(db, filter,
                " ORDER BY requested_at DESC NULLS LAST, session_id, requested_seq DESC, call_id LIMIT " + limit)) {
            List<AuditRecord> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(AuditProjection.read(rs));
                }
            }
            return out;
        }
    }

    /**
     * Opens the export's query, oldest call first. The connection must not be in auto-commit mode, so PostgreSQL hands
     * the rows over in batches through a cursor rather than all at once.
     */
    public static ResultSet openExport(Connection db, Filter filter) throws SQLException {
        db.setAutoCommit(false);
        PreparedStatement s = prepare(db, filter, " ORDER BY requested_at NULLS FIRST, session_id, requested_seq, call_id");
        s.setFetchSize(500);
        return s.executeQuery();
    }

    public static void writeAll(ResultSet rows, RowWriter writer) throws SQLException, java.io.IOException {
        while (rows.next()) {
            writer.write(AuditProjection.read(rows));
        }
    }

    private static PreparedStatement prepare(Connection db, Filter f, String tail) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT " + AuditProjection.COLUMNS
                + " FROM audit_tool_calls WHERE user_id = ?");
        List<Object> args = new ArrayList<>();
        args.add(f.userId());
        if (f.sessionId() != null) {
            sql.append(" AND session_id = ?");
            args.add(f.sessionId());
        }
        if (f.tool() != null) {
            sql.append(" AND tool = ?");
            args.add(f.tool());
        }
        if (f.status() != null) {
            sql.append(" AND status = ?");
            args.add(f.status().wireName());
        }
        // Days are UTC days; the connection's time zone must not move their edges.
        if (f.from() != null) {
            sql.append(" AND requested_at >= (?::date)::timestamp AT TIME ZONE 'UTC'");
            args.add(Date.valueOf(f.from()));
        }
        if (f.to() != null) {
            sql.append(" AND requested_at < ((?::date) + 1)::timestamp AT TIME ZONE 'UTC'");
            args.add(Date.valueOf(f.to()));
        }
        PreparedStatement s = db.prepareStatement(sql.append(tail).toString());
        for (int i = 0; i < args.size(); i++) {
            s.setObject(i + 1, args.get(i));
        }
        return s;
    }
}
