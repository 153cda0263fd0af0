package dev.agentbus.orchestrator.running;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which sessions are due for a snapshot, and where the next owner may start reading: no Kafka needed. */
class SnapshotCoverageTest {
    static final int EVERY = 10;
    static final long MAX_LAG = 1_000;

    @Test
    void a_session_is_due_once_it_has_every_n_events_since_its_last_snapshot() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "a", 1, 9, 100);
        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();

        c.event("a", 10, 109);

        assertThat(c.due(EVERY, MAX_LAG)).containsExactly("a");
    }

    @Test
    void a_snapshot_covers_its_session_and_counts_again_from_its_seq() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "a", 1, 10, 0);

        c.snapshot("a", 10);

        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();
        assertThat(c.uncovered("a")).isNull();
        assertThat(c.snapshotSeq("a")).isEqualTo(10);
        assertThat(c.snapshots()).isEqualTo(1);
        events(c, "a", 11, 19, 10);
        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();
        c.event("a", 20, 19);
        assertThat(c.due(EVERY, MAX_LAG)).containsExactly("a");
    }

    @Test
    void the_watermark_is_the_first_event_no_snapshot_covers() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "a", 1, 3, 0);   // offsets 0-2
        events(c, "b", 1, 3, 3);   // offsets 3-5
        events(c, "a", 4, 5, 6);   // offsets 6-7

        assertThat(c.coveredBelow()).isZero();
        c.snapshot("a", 5);
        assertThat(c.coveredBelow()).as("b's first event").isEqualTo(3);
        c.snapshot("b", 3);
        assertThat(c.coveredBelow()).as("everything read").isEqualTo(8);
    }

    @Test
    void the_watermark_and_count_a_round_of_snapshots_will_state_include_that_round() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "a", 1, 2, 0);
        events(c, "b", 1, 2, 2);
        events(c, "c", 1, 2, 4);
        c.snapshot("c", 2);

        assertThat(c.coveredBelowAfter(List.of("a"))).isEqualTo(2);
        assertThat(c.coveredBelowAfter(List.of("a", "b"))).isEqualTo(6);
        assertThat(c.snapshotsAfter(List.of("a", "b"))).isEqualTo(3);
        assertThat(c.coveredBelow()).as("nothing is covered before the round is written").isZero();
    }

    @Test
    void an_idle_session_far_behind_the_end_of_the_partition_is_due_so_the_watermark_moves_on() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "idle", 1, 3, 0);
        events(c, "busy", 1, 5, 3);
        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();

        c.event("busy", 6, 3 + MAX_LAG);

        assertThat(c.due(EVERY, MAX_LAG)).containsExactly("idle");
    }

    @Test
    void a_session_that_is_merely_slow_among_busy_ones_is_not_due_before_its_n_events() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        for (int round = 0; round < 5; round++) {
            c.event("slow", round + 1, round * (MAX_LAG / 2));                 // one event per half a max lag
            events(c, "busy-" + round, 1, 3, round * (MAX_LAG / 2) + 1);
        }

        assertThat(c.due(EVERY, MAX_LAG)).doesNotContain("slow");
    }

    @Test
    void due_sessions_come_oldest_first() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "late", 1, EVERY, 50);
        events(c, "early", 1, EVERY, 0);

        assertThat(c.due(EVERY, MAX_LAG)).containsExactly("early", "late");
    }

    @Test
    void a_session_whose_snapshot_could_not_be_written_is_tried_again_after_n_more_events() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "huge", 1, EVERY, 0);
        c.couldNotSnapshot("huge", EVERY);

        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();
        events(c, "huge", EVERY + 1, 2 * EVERY - 1, EVERY);
        assertThat(c.due(EVERY, MAX_LAG)).isEmpty();
        c.event("huge", 2 * EVERY, 2 * EVERY);
        assertThat(c.due(EVERY, MAX_LAG)).containsExactly("huge");
    }

    @Test
    void a_forgotten_session_is_neither_covered_nor_uncovered() {
        SnapshotCoverage c = new SnapshotCoverage(0);
        events(c, "a", 1, 4, 0);
        c.snapshot("a", 2);

        c.forget("a");

        assertThat(c.snapshots()).isZero();
        assertThat(c.uncovered("a")).isNull();
        assertThat(c.coveredBelow()).isEqualTo(4);
    }

    /** Events fromSeq..toSeq of the session at consecutive offsets from firstOffset. */
    private static void events(SnapshotCoverage c, String session, long fromSeq, long toSeq, long firstOffset) {
        for (long seq = fromSeq; seq <= toSeq; seq++) {
            c.event(session, seq, firstOffset + seq - fromSeq);
        }
    }
}
