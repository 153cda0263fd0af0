package dev.agentbus.orchestrator.running;

import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which snapshot each session starts from, and where the partition's events are read from. */
class SnapshotSelectionTest {
    private static final long END = 1_000;

    private final SnapshotSelection selection = new SnapshotSelection(0);
    private long nextOffset;

    /** A valid snapshot of a session at {@code seq}, its event at {@code eventOffset}. */
    private static SessionSnapshot snapshot(String sessionId, int seq, long eventOffset, long coveredBelow, int count) {
        SessionState state = InMemoryPartition.stateAtSeq(sessionId, seq);
        return SessionSnapshot.of(0, eventOffset, coveredBelow, count, Instant.EPOCH, state);
    }

    private void offer(String key, byte[] value) {
        selection.offer(new StoredRecord(key, nextOffset++, value));
    }

    private void offer(SessionSnapshot snapshot) {
        offer(snapshot.sessionId(), snapshot.encode());
    }

    @Test
    void without_snapshot_records_every_session_starts_from_nothing_at_offset_0() {
        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.usable()).isEmpty();
        assertThat(choice.unusableKeys()).isEmpty();
        assertThat(choice.startOffset(END)).isZero();
    }

    @Test
    void the_latest_record_of_a_session_counts_and_the_newest_snapshot_states_the_watermark() {
        SessionSnapshot older = snapshot("ses-a", 5, 100, 90, 2);
        SessionSnapshot b = snapshot("ses-b", 8, 150, 120, 2);
        SessionSnapshot newer = snapshot("ses-a", 9, 200, 140, 2);
        offer(older);
        offer(b);
        offer(newer);

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.usable()).containsOnlyKeys("ses-a", "ses-b");
        assertThat(choice.usable().get("ses-a")).isEqualTo(newer);
        assertThat(choice.coveredBelow()).isEqualTo(140);
        assertThat(choice.startOffset(END)).isEqualTo(140);
        assertThat(choice.fromStartReason()).isNull();
    }

    @Test
    void a_tombstone_deletes_the_session_s_snapshot() {
        offer(snapshot("ses-a", 5, 100, 90, 1));
        offer("ses-a", null);

        assertThat(selection.choose(END).usable()).isEmpty();
    }

    @Test
    void a_snapshot_that_does_not_decode_is_unusable_and_the_others_still_count() {
        offer("ses-bad", "{garbage".getBytes(StandardCharsets.UTF_8));
        offer(snapshot("ses-good", 4, 60, 50, 2));

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.unusableKeys()).containsExactly("ses-bad");
        assertThat(choice.usable()).containsOnlyKeys("ses-good");
        assertThat(choice.startOffset(END)).isEqualTo(50);
    }

    @Test
    void a_snapshot_of_another_schema_version_is_unusable() {
        String json = new String(snapshot("ses-a", 4, 60, 50, 1).encode(), StandardCharsets.UTF_8)
                .replace("\"schemaVersion\":" + SessionSnapshot.SCHEMA_VERSION,
                        "\"schemaVersion\":" + (SessionSnapshot.SCHEMA_VERSION + 1));
        offer("ses-a", json.getBytes(StandardCharsets.UTF_8));

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.unusableKeys()).containsExactly("ses-a");
        assertThat(choice.usable()).isEmpty();
    }

    @Test
    void a_snapshot_written_for_another_partition_is_unusable() {
        SessionState state = InMemoryPartition.stateAtSeq("ses-a", 4);
        offer(SessionSnapshot.of(3, 60, 50, 1, Instant.EPOCH, state));

        assertThat(selection.choose(END).unusableKeys()).containsExactly("ses-a");
    }

    @Test
    void a_snapshot_of_an_event_beyond_the_end_of_the_log_is_unusable() {
        offer(snapshot("ses-ahead", 4, END, 0, 2));
        offer(snapshot("ses-fine", 4, END - 1, 10, 2));

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.unusableKeys()).containsExactly("ses-ahead");
        assertThat(choice.usable()).containsOnlyKeys("ses-fine");
    }

    @Test
    void fewer_snapshots_than_the_newest_says_there_were_means_one_is_missing_and_the_partition_is_read_from_0() {
        offer(snapshot("ses-a", 4, 60, 50, 3));
        offer(snapshot("ses-b", 4, 70, 55, 3));

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.fromStartReason()).contains("missing");
        assertThat(choice.startOffset(END)).isZero();
        assertThat(choice.usable()).as("the others still skip what they cover").containsOnlyKeys("ses-a", "ses-b");
    }

    @Test
    void snapshots_that_claim_to_cover_more_than_the_log_holds_make_the_partition_read_from_0() {
        offer(snapshot("ses-a", 4, 60, END + 5, 1));

        SnapshotSelection.Choice choice = selection.choose(END);

        assertThat(choice.fromStartReason()).contains("the log ends at " + END);
        assertThat(choice.startOffset(END)).isZero();
    }

    @Test
    void the_first_read_never_starts_past_the_end_of_the_log() {
        SnapshotSelection.Choice choice = new SnapshotSelection.Choice(Map.of(), java.util.Set.of(), END + 5, null);

        assertThat(choice.startOffset(END)).isEqualTo(END);
    }
}
