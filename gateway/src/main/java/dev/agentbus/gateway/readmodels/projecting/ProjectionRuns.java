package dev.agentbus.gateway.readmodels.projecting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code projection_runs} table: each pass of the projector over the log from offset 0 (the first start, then
 * every rebuild), with the end offsets the log had when it began, so progress can be told, and what it has done.
 */
public final class ProjectionRuns {

    /** One pass over the log. */
    record Run(long id, String reason, Instant startedAt, Map<Integer, Long> targetOffsets, Instant caughtUpAt,
               Long caughtUpEvents, long eventsApplied, long recordsSkipped, Instant lastAppliedAt) {
    }

    /**
     * What {@code GET /api/v1/admin/rebuild-projections} answers: the latest run and how far it is.
     *
     * @param state         {@code not_started} (no run yet), {@code running} or {@code caught_up}
     * @param offsetsDone   offsets applied so far, summed over partitions, at most {@code offsetsTotal}
     * @param offsetsTotal  the log's end offsets when the run started, summed over partitions
     * @param eventsPerSecond events applied per second from the run's start until it caught up (the rebuild rate),
     *                        or until the latest batch while it runs; null before the first event
     */
    public record Status(Long run, String reason, String state, Instant startedAt, Instant caughtUpAt, long eventsApplied,
                  long recordsSkipped, long offsetsDone, long offsetsTotal, double percent, Double eventsPerSecond) {
    }

    private static final String COLUMNS = "run_id, reason, started_at, target_offsets::text AS target, caught_up_at, "
            + "caught_up_events, events_applied, records_skipped, last_applied_at";

    private ProjectionRuns() {
    }

    static Optional<Run> latest(Connection db) throws SQLException {
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + COLUMNS + " FROM projection_runs ORDER BY run_id DESC LIMIT 1")) {
            return rs.next() ? Optional.of(read(rs)) : Optional.empty();
        }
    }

    /** The first run, on an empty schema: the projector reads from offset 0 for the first time. */
    static void startIfNone(Connection db, Map<Integer, Long> endOffsets) throws SQLException {
        ProjectionOffsets.lock(db);
        if (latest(db).isEmpty()) {
            insert(db, "initial", endOffsets);
        }
    }

    /**
     * Empties every read model and the offsets in one transaction and starts a new run. Every projector (this
     * gateway's and any replica's) sees its offsets go back to 0 and re-reads the log with today's code.
     */
    static void rebuild(Connection db, Map<Integer, Long> endOffsets) throws SQLException {
        try (Statement s = db.createStatement()) {
            // TRUNCATE waits for every reader of the tables (a long audit export, say), and the projectors wait for
            // this transaction: give up after a while rather than stall them (the client gets a 503 and may retry).
            s.execute("SET LOCAL lock_timeout = '10s'");
        }
        ProjectionOffsets.lock(db);
        try (Statement s = db.createStatement()) {
            s.execute("TRUNCATE " + String.join(", ", Projections.TABLES) + ", projection_offsets");
        }
        insert(db, "rebuild", endOffsets);
    }

    /** Adds a batch's counts to the latest run. */
    static void count(Connection db, int eventsApplied, int recordsSkipped) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("UPDATE projection_runs SET events_applied = events_applied + ?, "
                + "records_skipped = records_skipped + ?, last_applied_at = now() "
                + "WHERE run_id = (SELECT max(run_id) FROM projection_runs)")) {
            s.setLong(1, eventsApplied);
            s.setLong(2, recordsSkipped);
            s.executeUpdate();
        }
    }

    static void markCaughtUp(Connection db, long runId) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(
                "UPDATE projection_runs SET caught_up_at = coalesce(last_applied_at, now()), "
                        + "caught_up_events = events_applied WHERE run_id = ? AND caught_up_at IS NULL")) {
            s.setLong(1, runId);
            s.executeUpdate();
        }
    }

    static Status status(Connection db) throws SQLException {
        Optional<Run> latest = latest(db);
        if (latest.isEmpty()) {
            return new Status(null, null, "not_started", null, null, 0, 0, 0, 0, 0, null);
        }
        Run run = latest.get();
        Map<Integer, Long> stored = ProjectionOffsets.read(db);
        long total = 0;
        long done = 0;
        for (Map.Entry<Integer, Long> target : run.targetOffsets().entrySet()) {
            total += target.getValue();
            done += Math.min(target.getValue(), stored.getOrDefault(target.getKey(), 0L));
        }
        boolean caughtUp = run.caughtUpAt() != null;
        double percent = caughtUp || total == 0 ? 100.0 : Math.floor(1000.0 * done / total) / 10.0;
        Instant until = caughtUp ? run.caughtUpAt() : run.lastAppliedAt();
        long events = caughtUp ? run.caughtUpEvents() : run.eventsApplied();
        Double rate = null;
        if (until != null && events > 0) {
            double seconds = Math.max(0.001, Duration.between(run.startedAt(), until).toNanos() / 1e9);
            rate = Math.round(events / seconds * 10) / 10.0;
        }
        return new Status(run.id(), run.reason(), caughtUp ? "caught_up" : "running", run.startedAt(),
                run.caughtUpAt(), run.eventsApplied(), run.recordsSkipped(), caughtUp ? total : done, total, percent,
                rate);
    }

    private static void insert(Connection db, String reason, Map<Integer, Long> endOffsets) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT INTO projection_runs (reason, started_at, "
                + "target_offsets) VALUES (?, now(), ?::jsonb)")) {
            s.setString(1, reason);
            s.setString(2, Json.mapper().writeValueAsString(new TreeMap<>(endOffsets)));
            s.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Run read(ResultSet rs) throws SQLException {
        Map<Integer, Long> target;
        try {
            target = Json.mapper().readValue(rs.getString("target"), new TypeReference<TreeMap<Integer, Long>>() {
            });
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable target_offsets: " + e.getMessage(), e);
        }
        return new Run(rs.getLong("run_id"), rs.getString("reason"), Sql.getInstant(rs, "started_at"), target,
                Sql.getInstant(rs, "caught_up_at"), Sql.getLong(rs, "caught_up_events"), rs.getLong("events_applied"),
                rs.getLong("records_skipped"), Sql.getInstant(rs, "last_applied_at"));
    }
}
