package dev.agentbus.events.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

/**
 * A session's folded state at one seq, kept on {@code agentbus.session-snapshots} (compacted, keyed by session id)
 * so an orchestrator taking over a partition folds only the events after it. A snapshot is a cache of
 * {@link SessionFold#fold}: the log stays the only truth, and a snapshot that is missing, unreadable, of another
 * schema version or at odds with the log is ignored (the session is folded from its events, which only costs time).
 * See docs/snapshots.md.
 *
 * @param schemaVersion        {@link #SCHEMA_VERSION} of the code that wrote it. A snapshot holds what the fold of
 *                             that code computed; when the fold or {@link SessionState} changes, the version goes up
 *                             and older snapshots are ignored, since today's fold might compute something else
 * @param sessionId            the session (also the record key)
 * @param seq                  the seq of the last event folded into {@code state}
 * @param partition            the partition of {@code agentbus.session-events} the session's events are in
 * @param eventOffset          the offset of that last event in that partition: the session's tail starts after it
 * @param coveredBelow         every event of the partition at an offset below this had been folded into a snapshot
 *                             written no later than this one: a reader may start the partition's tail here
 * @param snapshotsInPartition how many sessions of the partition had a snapshot once this one was written; a reader
 *                             that finds fewer knows one went missing and folds the partition from its start
 * @param time                 when it was written (for people)
 * @param state                the folded state; {@code state.lastSeq() == seq}
 */
public record SessionSnapshot(int schemaVersion, String sessionId, long seq, int partition, long eventOffset,
                              long coveredBelow, int snapshotsInPartition, Instant time, SessionState state) {

    /**
     * Raise it with every change to how events fold or to the shape of {@link SessionState}: a change to the golden
     * {@code *.state.json} files is one. {@code SessionSnapshotTest} pins the state's shape to this number.
     */
    public static final int SCHEMA_VERSION = 9;

    public static SessionSnapshot of(int partition, long eventOffset, long coveredBelow, int snapshotsInPartition,
                                     Instant time, SessionState state) {
        return new SessionSnapshot(SCHEMA_VERSION, state.sessionId(), state.lastSeq(), partition, eventOffset,
                coveredBelow, snapshotsInPartition, time, state);
    }

    public byte[] encode() {
        try {
            return Json.mapper().writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the snapshot of " + sessionId, e);
        }
    }

    /**
     * Reads a snapshot record and checks that it is one this code may use for {@code key}.
     *
     * @throws UnusableSnapshotException saying why it may not be used: not JSON, another schema version, a state
     *                                   that does not parse, or fields that contradict each other
     */
    public static SessionSnapshot decode(String key, byte[] bytes) {
        SessionSnapshot s;
        try {
            // One pass straight into the records: a takeover reads a snapshot per session, so this is its main cost.
            s = Json.mapper().readValue(bytes, SessionSnapshot.class);
        } catch (IOException | RuntimeException e) {
            throw new UnusableSnapshotException(whyUnreadable(bytes, e));
        }
        if (s == null) {
            throw new UnusableSnapshotException("not a JSON object");
        }
        // Checked after parsing, which is fine: a snapshot of another version is rejected either way.
        if (s.schemaVersion() != SCHEMA_VERSION) {
            throw new UnusableSnapshotException("schema version " + s.schemaVersion() + ", this code reads "
                    + SCHEMA_VERSION);
        }
        String problem = s.problem(key);
        if (problem != null) {
            throw new UnusableSnapshotException(problem);
        }
        return s;
    }

    /** A record that did not parse: another schema version (whose state need not parse today), or not JSON at all. */
    private static String whyUnreadable(byte[] bytes, Exception e) {
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(bytes);
        } catch (IOException | RuntimeException notJson) {
            return "not JSON: " + notJson.getMessage();
        }
        if (tree == null || !tree.isObject()) {
            return "not a JSON object";
        }
        JsonNode version = tree.get("schemaVersion");
        if (version == null || !version.canConvertToInt() || version.intValue() != SCHEMA_VERSION) {
            return "schema version " + version + ", this code reads " + SCHEMA_VERSION;
        }
        return "does not parse: " + e.getMessage();
    }

    /** Why this snapshot contradicts itself or its key, or null when it does not. */
    private String problem(String key) {
        if (state == null) {
            return "no state";
        }
        if (!Objects.equals(sessionId, key) || !Objects.equals(state.sessionId(), key)) {
            return "session " + sessionId + " (state of " + state.sessionId() + ") under key " + key;
        }
        if (seq < 1 || state.lastSeq() != seq) {
            return "seq " + seq + " but the state is at seq " + state.lastSeq();
        }
        if (eventOffset < 0 || partition < 0 || coveredBelow < 0 || snapshotsInPartition < 0) {
            return "negative partition, offset or count";
        }
        return null;
    }

    /** A snapshot record that must not be used; the reason says why. Never fatal: the log is folded instead. */
    public static final class UnusableSnapshotException extends RuntimeException {
        public UnusableSnapshotException(String reason) {
            super(reason);
        }
    }
}
