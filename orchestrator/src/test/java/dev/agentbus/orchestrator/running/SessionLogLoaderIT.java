package dev.agentbus.orchestrator.running;

import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionSnapshot;
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
 * Rebuilding a partition from a real broker: from the log alone, and from snapshots plus the tail, with the offsets
 * Kafka gives (commit markers), snapshot records past the default record size, and the two passes a bad snapshot
 * costs. Which snapshot is used when, and the fold itself, are tested without a broker in
 * {@link SnapshotSelectionTest} and {@link PartitionFoldTest}.
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
}
