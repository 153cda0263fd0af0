package dev.agentbus.orchestrator.running;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rebuilding a partition from a real broker: from the log alone, and from snapshots plus the tail. Whatever happens
 * to the snapshots, the rebuilt states are exactly the fold of the log; a bad snapshot only costs time.
 */
class SessionLogLoaderIT {
    static final int SESSIONS = 8;
    static final int EVENTS = 60;
    static final int EVERY = 25;

    @TempDir
    static Path dir;
    static KafkaTopics topics;

    final SnapshotWriter snapshots = new SnapshotWriter(EVERY, Clock.fixed(Instant.parse("2025-03-15T00:00:00Z"),
            ZoneOffset.UTC));

    @BeforeAll
    static void startBroker() {
        topics = new KafkaTopics(dir, 1);
    }

    @AfterAll
    static void stopBroker() {
        topics.close();
    }

    @BeforeEach
    void emptyTopics() throws Exception {
        topics.recreate();
    }

    @Test
    void without_snapshots_every_session_is_the_fold_of_its_log() {
        try (LogWriter log = new LogWriter(topics.kafka, null).write(sessions(), 4)) {
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsUsed()).isZero();
            assertThat(loaded.stats().startOffset()).isZero();
            assertThat(loaded.stats().eventsFolded()).isEqualTo(SESSIONS * EVENTS);
        }
    }

    @Test
    void with_snapshots_only_the_events_after_them_are_folded_and_the_states_are_the_same() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsUsed()).isEqualTo(SESSIONS);
            assertThat(loaded.stats().snapshotsIgnored()).isZero();
            assertThat(loaded.stats().fromStartReason()).isNull();
            assertThat(loaded.stats().startOffset()).as("the watermark").isPositive();
            // Snapshots at seq 28 and 56 (every 25 events, written in transactions of 4): 4 events of each are left,
            // and the watermark is right before them (all sessions were covered after the last snapshots).
            assertThat(loaded.stats().eventsFolded()).isEqualTo(SESSIONS * (EVENTS - 56));
            assertThat(loaded.stats().eventsRead()).isEqualTo(SESSIONS * (EVENTS - 56));
        }
    }

    @Test
    void a_new_owner_carries_on_from_the_coverage_it_loaded_and_snapshots_when_due() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            SessionLogLoader.LoadedPartition first = new SessionLogLoader(topics.kafka, true).load(0);
            assertThat(first.coverage().snapshotSeq("ses-0")).isEqualTo(56);
            assertThat(first.coverage().uncovered("ses-0").lastSeq()).isEqualTo(EVENTS);

            SnapshotWriter next = new SnapshotWriter(EVERY, Clock.systemUTC());
            try (LogWriter owner = new LogWriter(topics.kafka, next, first.coverage())) {
                owner.states.putAll(first.states());
                owner.write(Map.of("ses-0", SampleHistories.session("ses-0", EVENTS + 24).subList(EVENTS, EVENTS + 24)),
                        4);
                SessionLogLoader.LoadedPartition second = new SessionLogLoader(topics.kafka, true).load(0);

                assertThat(second.states()).isEqualTo(owner.states);
                assertThat(second.coverage().snapshotSeq("ses-0")).as("56 + 25 events, in transactions of 4")
                        .isEqualTo(84);
                assertThat(second.stats().snapshotsIgnored()).isZero();
            }
        }
    }

    @Test
    void snapshots_turned_off_fold_the_whole_log() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, false).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsUsed()).isZero();
            assertThat(loaded.stats().eventsFolded()).isEqualTo(SESSIONS * EVENTS);
        }
    }

    @Test
    void a_snapshot_that_is_not_json_is_ignored_and_its_session_folded_from_the_log() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            log.rawSnapshot("ses-3", "{garbage".getBytes(StandardCharsets.UTF_8));

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsIgnored()).isEqualTo(1);
            assertThat(loaded.stats().snapshotsUsed()).isEqualTo(SESSIONS - 1);
            assertThat(loaded.stats().eventsFolded()).isEqualTo((SESSIONS - 1) * (EVENTS - 56) + EVENTS);
            assertThat(loaded.coverage().uncovered("ses-3").firstOffset())
                    .as("the session needs a new snapshot: it holds the watermark back at its first event")
                    .isEqualTo(log.offsets.get("ses-3").getFirst());
            assertThat(loaded.coverage().coveredBelow()).isEqualTo(log.offsets.get("ses-3").getFirst());
        }
    }

    @Test
    void a_snapshot_of_an_unknown_schema_version_is_ignored() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            ObjectNode newer = Json.mapper().valueToTree(snapshotOf(log, "ses-5", 40, 0));
            newer.put("schemaVersion", SessionSnapshot.SCHEMA_VERSION + 1);
            log.rawSnapshot("ses-5", newer.toString().getBytes(StandardCharsets.UTF_8));

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsIgnored()).isEqualTo(1);
        }
    }

    @Test
    void a_snapshot_ahead_of_the_end_of_the_log_is_ignored() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            // The state at seq 70 of a log that was longer (a topic recreated, say), at an offset past the end.
            SessionState ahead = foldFurther(log, "ses-7", 10);
            log.rawSnapshot("ses-7", SessionSnapshot.of(0, 1_000_000, 0, SESSIONS, Instant.now(), ahead).encode());

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.states().get("ses-7").lastSeq()).isEqualTo(EVENTS);
            assertThat(loaded.stats().snapshotsIgnored()).isEqualTo(1);
        }
    }

    @Test
    void a_snapshot_whose_seq_is_not_the_event_at_its_offset_is_ignored() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            // Claims seq 70 at the offset of the session's real last event (seq 60), with the real watermark.
            long watermark = new SessionLogLoader(topics.kafka, true).load(0).stats().startOffset();
            long lastOffset = log.offsets.get("ses-2").getLast();
            assertThat(lastOffset).isGreaterThanOrEqualTo(watermark);
            SessionState ahead = foldFurther(log, "ses-2", 10);
            log.rawSnapshot("ses-2", SessionSnapshot.of(0, lastOffset, watermark, SESSIONS, Instant.now(), ahead)
                    .encode());

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsIgnored()).isEqualTo(1);
        }
    }

    @Test
    void a_snapshot_after_which_the_log_does_not_continue_with_the_next_seq_is_ignored() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            // The true state at seq 20, but filed under the offset of seq 28 and below the watermark, so the loader
            // cannot check it against its event: only the next event of the session (seq 57) gives it away.
            long watermark = new SessionLogLoader(topics.kafka, true).load(0).stats().startOffset();
            SessionState atSeq20 = SessionFold.fold("ses-1", log.logs.get("ses-1").subList(0, 20));
            long offsetOfSeq28 = log.offsets.get("ses-1").get(27);
            assertThat(offsetOfSeq28).isLessThan(watermark);
            log.rawSnapshot("ses-1", SessionSnapshot.of(0, offsetOfSeq28, watermark, SESSIONS, Instant.now(), atSeq20)
                    .encode());

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsIgnored()).isEqualTo(1);
            assertThat(loaded.stats().startOffset()).isEqualTo(watermark);
        }
    }

    @Test
    void a_snapshot_behind_its_log_is_used_and_the_rest_of_the_log_folded_on_top() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            // An older, true snapshot (seq 28) replaces the newest one; the watermark it states is 0.
            SessionSnapshot older = snapshotAtSeq(log, "ses-4", 28);

            log.rawSnapshot("ses-4", older.encode());
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().snapshotsIgnored()).isZero();
            assertThat(loaded.stats().snapshotsUsed()).isEqualTo(SESSIONS);
            assertThat(loaded.stats().eventsFolded()).isEqualTo((SESSIONS - 1) * (EVENTS - 56) + (EVENTS - 28));
        }
    }

    @Test
    void a_lost_snapshot_makes_the_loader_read_the_partition_from_the_start() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            log.rawSnapshot("ses-6", null); // deleted: nothing says where ses-6's events are

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.stats().fromStartReason()).contains("missing");
            assertThat(loaded.stats().startOffset()).isZero();
            assertThat(loaded.stats().snapshotsUsed()).as("the others still skip what they cover")
                    .isEqualTo(SESSIONS - 1);
        }
    }

    @Test
    void a_session_created_after_the_last_snapshots_is_folded_from_its_first_event() {
        try (LogWriter log = new LogWriter(topics.kafka, snapshots).write(sessions(), 4)) {
            log.write(Map.of("ses-new", SampleHistories.session("ses-new", 7)), 3);

            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.states().get("ses-new").lastSeq()).isEqualTo(7);
        }
    }

    @Test
    void the_snapshot_of_a_long_session_is_written_and_used_though_it_is_larger_than_kafkas_default_record() {
        // 40 events with 4 tool outputs of 300 KB of random letters, each in the state twice (the call's output and
        // the tool message): 2.4 MB of state JSON, about 1.5 MB compressed.
        Map<String, List<SessionEvent>> big = Map.of("ses-big", SampleHistories.session("ses-big", 40, 300_000));
        SnapshotWriter bigSnapshots = new SnapshotWriter(20, Clock.systemUTC());
        try (LogWriter log = new LogWriter(topics.kafka, bigSnapshots).write(big, 4)) {
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(SessionSnapshot.of(0, 0, 0, 0, Instant.EPOCH, log.states.get("ses-big")).encode().length)
                    .isGreaterThan(2_000_000);
            assertThat(loaded.stats().snapshotsUsed()).isEqualTo(1);
            assertThat(loaded.coverage().snapshotSeq("ses-big")).isEqualTo(40);
            assertThat(loaded.states()).isEqualTo(log.states);
        }
    }

    @Test
    void a_session_too_large_to_snapshot_is_left_out_and_holds_the_watermark_at_its_first_event() {
        Map<String, List<SessionEvent>> sessions = new LinkedHashMap<>();
        sessions.put("ses-small", SampleHistories.session("ses-small", 30));
        sessions.put("ses-large", SampleHistories.session("ses-large", 30, 50_000));
        SnapshotWriter limited = new SnapshotWriter(10, Clock.systemUTC(), 60_000);
        try (LogWriter log = new LogWriter(topics.kafka, limited).write(sessions, 4)) {
            SessionLogLoader.LoadedPartition loaded = new SessionLogLoader(topics.kafka, true).load(0);

            assertThat(loaded.states()).isEqualTo(log.states);
            assertThat(loaded.coverage().snapshotSeq("ses-small")).as("every 10 events, in transactions of 4")
                    .isEqualTo(24);
            assertThat(loaded.coverage().snapshotSeq("ses-large")).as("never written").isZero();
            assertThat(loaded.stats().startOffset()).as("the watermark the small one's snapshots state")
                    .isEqualTo(log.offsets.get("ses-large").getFirst());
            assertThat(loaded.stats().eventsFolded()).as("all of the large one, the small one's tail")
                    .isEqualTo(30 + 6);
        }
    }

    @Test
    void the_snapshot_topic_takes_large_records_and_is_compacted_soon() throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                topics.kafka.bootstrapServers()))) {
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC,
                    dev.agentbus.events.topics.Topics.SESSION_SNAPSHOTS.name());
            var config = admin.describeConfigs(List.of(resource)).all().get().get(resource);

            SnapshotTopic.settings().forEach((key, value) ->
                    assertThat(config.get(key).value()).as(key).isEqualTo(value));
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    static Map<String, List<SessionEvent>> sessions() {
        Map<String, List<SessionEvent>> sessions = new LinkedHashMap<>();
        for (int i = 0; i < SESSIONS; i++) {
            sessions.put("ses-" + i, SampleHistories.session("ses-" + i, EVENTS));
        }
        return sessions;
    }

    /** The session's state with {@code more} events folded on top that the log does not have. */
    static SessionState foldFurther(LogWriter log, String sessionId, int more) {
        SessionState state = log.states.get(sessionId);
        List<SessionEvent> extra = SampleHistories.session(sessionId, EVENTS + more).subList(EVENTS, EVENTS + more);
        for (SessionEvent e : extra) {
            long seq = state.lastSeq() + 1;
            state = SessionFold.evolve(state, new EventEnvelope("x-" + seq, sessionId, seq,
                    LogWriter.T0.plusSeconds(seq), "inp", "usr-ada", e));
        }
        return state;
    }

    static SessionSnapshot snapshotOf(LogWriter log, String sessionId, long offset, long coveredBelow) {
        return SessionSnapshot.of(0, offset, coveredBelow, SESSIONS, Instant.now(), log.states.get(sessionId));
    }

    /** A true snapshot at an earlier seq: the fold of the first {@code seq} events, at that event's real offset. */
    static SessionSnapshot snapshotAtSeq(LogWriter log, String sessionId, int seq) {
        List<EventEnvelope> events = log.logs.get(sessionId).subList(0, seq);
        SessionState state = SessionFold.fold(sessionId, events);
        long offset = log.offsets.get(sessionId).get(seq - 1);
        return SessionSnapshot.of(0, offset, 0, SESSIONS, Instant.now(), state);
    }
}
