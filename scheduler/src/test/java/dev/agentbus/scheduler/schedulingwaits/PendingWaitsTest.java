package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingWait;
import dev.agentbus.scheduler.schedulingwaits.PendingWaits.Change;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PendingWaitsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant NINE = Instant.parse("2026-11-23T09:00:00Z");
    private static final Instant TEN = Instant.parse("2026-11-23T10:00:00Z");

    private final PendingWaits waits = new PendingWaits();
    private final AtomicLong seq = new AtomicLong();

    private EventEnvelope event(String sessionId, SessionEvent event) {
        long n = seq.incrementAndGet();
        return new EventEnvelope("e" + n, sessionId, n, NOW, "in", "alice", event);
    }

    @Test
    void a_scheduled_wait_is_armed_with_its_time_reason_and_call() {
        Change change = waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "check the build", "call-1")));

        PendingWait expected = new PendingWait("w-1", NINE, "check the build", "call-1");
        assertThat(change).isEqualTo(new Change.Armed("s-1", expected));
        assertThat(waits.pending()).containsExactlyEntriesOf(java.util.Map.of("s-1", expected));
    }

    @Test
    void a_wait_from_a_wait_answer_is_armed_without_a_call_id() {
        Change change = waits.apply(event("s-1", new WaitScheduled("w-1", NINE, null, null)));

        assertThat(change).isEqualTo(new Change.Armed("s-1", new PendingWait("w-1", NINE, null, null)));
    }

    @Test
    void a_wait_that_ended_is_disarmed_by_its_id() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "later", null)));

        Change change = waits.apply(event("s-1", new WaitEnded("w-1")));

        assertThat(change).isEqualTo(new Change.Disarmed("s-1", "w-1"));
        assertThat(waits.pending()).isEmpty();
    }

    @Test
    void the_end_of_the_turn_disarms_its_wait() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "later", null)));

        Change change = waits.apply(event("s-1", new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled")));

        assertThat(change).isEqualTo(new Change.Disarmed("s-1", "w-1"));
        assertThat(waits.pending()).isEmpty();
    }

    @Test
    void ending_a_wait_or_a_turn_when_nothing_is_pending_changes_nothing() {
        assertThat(waits.apply(event("s-1", new WaitEnded("w-1")))).isEqualTo(new Change.None());
        assertThat(waits.apply(event("s-1", new TurnEnded(TurnOutcome.COMPLETED, "done", null))))
                .isEqualTo(new Change.None());
        assertThat(waits.pending()).isEmpty();
    }

    @Test
    void a_wait_is_disarmed_only_once() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "later", null)));
        waits.apply(event("s-1", new WaitEnded("w-1")));

        Change change = waits.apply(event("s-1", new TurnEnded(TurnOutcome.COMPLETED, "done", null)));

        assertThat(change).isEqualTo(new Change.None());
    }

    @Test
    void other_events_change_nothing_and_keep_the_pending_wait() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "later", null)));

        assertThat(waits.apply(event("s-1", new SessionCreated("t")))).isEqualTo(new Change.None());
        assertThat(waits.apply(event("s-1", new UserMessagePosted("hi")))).isEqualTo(new Change.None());
        assertThat(waits.apply(event("s-1", new ModelCallStarted("r1", 1)))).isEqualTo(new Change.None());
        assertThat(waits.apply(event("s-1", new ToolCallCompleted("c1", true, "ok", null, null, false, 1, false))))
                .isEqualTo(new Change.None());
        assertThat(waits.apply(event("s-1", new SessionEvent.UnknownEvent("future.v9", null))))
                .isEqualTo(new Change.None());

        assertThat(waits.pending()).containsOnlyKeys("s-1");
        assertThat(waits.pending().get("s-1").waitId()).isEqualTo("w-1");
    }

    @Test
    void a_second_wait_replaces_the_first_for_the_same_session() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "first", null)));

        Change change = waits.apply(event("s-1", new WaitScheduled("w-2", TEN, "second", "call-2")));

        assertThat(change).isEqualTo(new Change.Armed("s-1", new PendingWait("w-2", TEN, "second", "call-2")));
        assertThat(waits.pending()).hasSize(1);
        assertThat(waits.pending().get("s-1").waitId()).isEqualTo("w-2");
        assertThat(waits.apply(event("s-1", new WaitEnded("w-2")))).isEqualTo(new Change.Disarmed("s-1", "w-2"));
    }

    @Test
    void sessions_are_independent() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "one", null)));
        waits.apply(event("s-2", new WaitScheduled("w-2", TEN, "two", null)));

        Change change = waits.apply(event("s-1", new TurnEnded(TurnOutcome.COMPLETED, "done", null)));

        assertThat(change).isEqualTo(new Change.Disarmed("s-1", "w-1"));
        assertThat(waits.pending()).containsOnlyKeys("s-2");
        assertThat(waits.pending().get("s-2")).isEqualTo(new PendingWait("w-2", TEN, "two", null));
        assertThat(waits.apply(event("s-1", new WaitEnded("w-2")))).isEqualTo(new Change.None());
        assertThat(waits.pending()).containsOnlyKeys("s-2");
    }

    @Test
    void callers_cannot_change_the_pending_waits_behind_its_back() {
        waits.apply(event("s-1", new WaitScheduled("w-1", NINE, "later", null)));

        assertThatThrownBy(() -> waits.pending().remove("s-1")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(waits.pending()).containsOnlyKeys("s-1");
    }
}
