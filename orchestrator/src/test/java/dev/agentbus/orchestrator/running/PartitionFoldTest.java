package dev.agentbus.orchestrator.running;

import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Folding a partition onto its chosen snapshots: whatever the snapshots are, the states are exactly the fold of the
 * log; a bad snapshot only costs a second pass. The partition: 8 sessions of 60 events, written 4 events per
 * transaction, round robin.
 */
class PartitionFoldTest {
    private static final int SESSIONS = 8;
    private static final int EVENTS = 60;
    /** Where the snapshots of the tests are taken: a multiple of the 4 events per transaction. */
    private static final int SNAPSHOT_SEQ = 56;

    private final InMemoryPartition log = new InMemoryPartition().write(sessions(), 4);

    private static Map<String, List<SessionEvent>> sessions() {
        Map<String, List<SessionEvent>> sessions = new LinkedHashMap<>();
        for (int i = 0; i < SESSIONS; i++) {
            sessions.put("ses-" + i, SampleHistories.session("ses-" + i, EVENTS));
        }
        return sessions;
    }

    /** Every session's true snapshot at {@link #SNAPSHOT_SEQ}, stating the watermark that follows from them. */
    private Map<String, SessionSnapshot> snapshotsOfAll() {
        Map<String, SessionSnapshot> all = new HashMap<>();
        for (String id : log.states.keySet()) {
            all.put(id, log.snapshotAt(id, SNAPSHOT_SEQ, watermark(), SESSIONS));
        }
        return all;
    }

    private long watermark() {
        return log.watermarkAfterSeq(SNAPSHOT_SEQ);
    }

    private SnapshotSelection.Choice choice(Map<String, SessionSnapshot> usable, Set<String> unusable) {
        return new SnapshotSelection.Choice(usable, unusable, watermark(), null);
    }

    private PartitionFold.Folded fold(SnapshotSelection.Choice choice) {
        return PartitionFold.fold(InMemoryPartition.PARTITION, choice, log.end(), log.reader());
    }

    @Test
    void without_snapshots_every_session_is_the_fold_of_its_log() {
        PartitionFold.Folded folded = fold(SnapshotSelection.Choice.NONE);

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.startOffset()).isZero();
        assertThat(folded.snapshotsUsed()).isZero();
        assertThat(folded.eventsFolded()).isEqualTo(SESSIONS * EVENTS);
        assertThat(folded.coverage().coveredBelow()).as("nothing covered yet").isZero();
    }

    @Test
    void with_snapshots_only_the_events_after_them_are_read_and_folded_and_the_states_are_the_same() {
        PartitionFold.Folded folded = fold(choice(snapshotsOfAll(), Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.snapshotsUsed()).isEqualTo(SESSIONS);
        assertThat(folded.snapshotsIgnored()).isZero();
        assertThat(folded.startOffset()).isEqualTo(watermark()).isPositive();
        assertThat(folded.eventsRead()).isEqualTo(SESSIONS * (EVENTS - SNAPSHOT_SEQ));
        assertThat(folded.eventsFolded()).isEqualTo(SESSIONS * (EVENTS - SNAPSHOT_SEQ));
        assertThat(folded.coverage().snapshotSeq("ses-0")).isEqualTo(SNAPSHOT_SEQ);
        assertThat(folded.coverage().uncovered("ses-0").lastSeq()).isEqualTo(EVENTS);
    }

    @Test
    void a_session_with_a_snapshot_and_no_later_event_starts_from_its_snapshot_and_is_covered() {
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        SessionSnapshot atTheEnd = log.snapshotAt("ses-3", EVENTS, watermark(), SESSIONS);
        usable.put("ses-3", atTheEnd);

        PartitionFold.Folded folded = fold(choice(usable, Set.of()));

        assertThat(folded.states().get("ses-3")).isEqualTo(log.states.get("ses-3"));
        assertThat(folded.coverage().uncovered("ses-3")).isNull();
        assertThat(folded.coverage().snapshotSeq("ses-3")).isEqualTo(EVENTS);
    }

    @Test
    void a_session_whose_snapshot_was_unusable_is_folded_from_its_first_event_and_holds_the_watermark_back() {
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        usable.remove("ses-3");

        PartitionFold.Folded folded = fold(choice(usable, Set.of("ses-3")));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.snapshotsIgnored()).isEqualTo(1);
        assertThat(folded.snapshotsUsed()).isEqualTo(SESSIONS - 1);
        assertThat(folded.eventsFolded()).isEqualTo((SESSIONS - 1) * (EVENTS - SNAPSHOT_SEQ) + EVENTS);
        assertThat(folded.coverage().uncovered("ses-3").firstOffset())
                .as("the session needs a new snapshot: it holds the watermark back at its first event")
                .isEqualTo(log.offsetOf("ses-3", 1));
        assertThat(folded.coverage().coveredBelow()).isEqualTo(log.offsetOf("ses-3", 1));
    }

    @Test
    void a_snapshot_whose_seq_is_not_the_event_at_its_offset_is_dropped_and_its_session_folded_from_offset_0() {
        // Claims seq 70 at the offset of the session's real last event (seq 60).
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        SessionState ahead = InMemoryPartition.stateAtSeq("ses-2", 70);
        usable.put("ses-2", SessionSnapshot.of(0, log.offsetOf("ses-2", EVENTS), watermark(), SESSIONS,
                Instant.EPOCH, ahead));

        PartitionFold.Folded folded = fold(choice(usable, Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.snapshotsIgnored()).isEqualTo(1);
        assertThat(folded.snapshotsUsed()).isEqualTo(SESSIONS - 1);
    }

    @Test
    void a_snapshot_whose_event_is_unreadable_is_dropped() {
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        log.appendRaw("ses-late", "not an event".getBytes(StandardCharsets.UTF_8));
        long unreadable = log.end() - 1;
        log.append("ses-late", SampleHistories.session("ses-late", 3));
        usable.put("ses-late", SessionSnapshot.of(0, unreadable, watermark(), SESSIONS + 1, Instant.EPOCH,
                InMemoryPartition.stateAtSeq("ses-late", 2)));

        PartitionFold.Folded folded = fold(choice(usable, Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.states().get("ses-late").lastSeq()).isEqualTo(3);
        assertThat(folded.snapshotsIgnored()).isEqualTo(1);
    }

    @Test
    void a_snapshot_after_which_the_log_does_not_continue_with_the_next_seq_is_dropped() {
        // The true state at seq 20, but filed under the offset of seq 28, below the watermark: the loader cannot
        // check it against its event, and only the session's next event (seq 57) gives it away.
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        usable.put("ses-1", SessionSnapshot.of(0, log.offsetOf("ses-1", 28), watermark(), SESSIONS, Instant.EPOCH,
                log.stateAt("ses-1", 20)));

        PartitionFold.Folded folded = fold(choice(usable, Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.snapshotsIgnored()).isEqualTo(1);
        assertThat(folded.startOffset()).isEqualTo(watermark());
    }

    @Test
    void a_snapshot_behind_its_log_is_used_and_the_rest_of_the_log_folded_on_top() {
        // An older, true snapshot (seq 28) stating watermark 0: everything is read, only what it covers is skipped.
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        usable.put("ses-4", log.snapshotAt("ses-4", 28, 0, SESSIONS));

        PartitionFold.Folded folded = fold(new SnapshotSelection.Choice(usable, Set.of(), 0, null));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.snapshotsIgnored()).isZero();
        assertThat(folded.snapshotsUsed()).isEqualTo(SESSIONS);
        assertThat(folded.eventsFolded()).isEqualTo((SESSIONS - 1) * (EVENTS - SNAPSHOT_SEQ) + (EVENTS - 28));
        assertThat(folded.eventsRead()).isEqualTo(SESSIONS * EVENTS);
    }

    @Test
    void read_from_offset_0_the_sessions_with_snapshots_still_skip_what_they_cover() {
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        usable.remove("ses-6");

        PartitionFold.Folded folded = fold(new SnapshotSelection.Choice(usable, Set.of(), 0, "one is missing"));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.startOffset()).isZero();
        assertThat(folded.snapshotsUsed()).isEqualTo(SESSIONS - 1);
        assertThat(folded.eventsFolded()).isEqualTo((SESSIONS - 1) * (EVENTS - SNAPSHOT_SEQ) + EVENTS);
    }

    @Test
    void a_session_created_after_the_last_snapshots_is_folded_from_its_first_event() {
        Map<String, SessionSnapshot> usable = snapshotsOfAll();
        log.write(Map.of("ses-new", SampleHistories.session("ses-new", 7)), 3);

        PartitionFold.Folded folded = fold(choice(usable, Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.states().get("ses-new").lastSeq()).isEqualTo(7);
        assertThat(folded.coverage().uncovered("ses-new").firstOffset()).isEqualTo(log.offsetOf("ses-new", 1));
    }

    @Test
    void an_unreadable_record_among_the_events_is_skipped() {
        log.appendRaw("ses-0", "{not an event".getBytes(StandardCharsets.UTF_8));

        PartitionFold.Folded folded = fold(choice(snapshotsOfAll(), Set.of()));

        assertThat(folded.states()).isEqualTo(log.states);
        assertThat(folded.eventsRead()).isEqualTo(SESSIONS * (EVENTS - SNAPSHOT_SEQ) + 1);
        assertThat(folded.eventsFolded()).isEqualTo(SESSIONS * (EVENTS - SNAPSHOT_SEQ));
        assertThat(folded.snapshotsIgnored()).isZero();
    }
}
