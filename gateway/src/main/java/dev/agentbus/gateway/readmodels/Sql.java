package dev.agentbus.gateway.readmodels;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** The few JDBC conversions every read model needs: instants as timestamptz, and nullable numbers. */
public final class Sql {
    private Sql() {
    }

    public static void setInstant(PreparedStatement s, int index, Instant value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            s.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
        }
    }

    public static Instant getInstant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    public static void setLong(PreparedStatement s, int index, Long value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.BIGINT);
        } else {
            s.setLong(index, value);
        }
    }

    public static Long getLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    /**
     * Sets a text parameter. PostgreSQL text cannot hold the NUL character, which a model or a person can still
     * produce; one would fail the projector's batch on every retry, so it becomes a space.
     */
    public static void setText(PreparedStatement s, int index, String value) throws SQLException {
        s.setString(index, clean(value));
    }

    /** The text without NUL characters (see {@link #setText}), for values that go into SQL arrays. */
    public static String clean(String value) {
        return value == null ? null : value.replace('\0', ' ');
    }

    /** At most {@code max} characters, for columns that hold a preview rather than the whole text. */
    public static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
