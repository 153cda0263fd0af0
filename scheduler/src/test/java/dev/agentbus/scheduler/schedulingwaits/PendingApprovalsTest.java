package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.scheduler.schedulingwaits.PendingApprovals.Change;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class PendingApprovalsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant EXPIRES = Instant.parse("2026-11-22T10:30:00Z");

    private final PendingApprovals approvals = new PendingApprovals();
    private final AtomicLong seq = new AtomicLong();

    private EventEnvelope event(String sessionId, SessionEvent event) {
        long n = seq.incrementAndGet();
        return new EventEnvelope("e" + n, sessionId, n, NOW, "in", "alice", event);
    }

    private static ApprovalRequested requested(String callId) {
        return new ApprovalRequested(callId, "shell", "{}", Risk.HIGH, "normal mode", EXPIRES);
    }

    @Test
    void a_requested_approval_is_armed_for_its_expiry() {
        assertThat(approvals.apply(event("s-1", requested("c1"))))
                .containsExactly(new Change.Armed("s-1", "c1", EXPIRES));
        assertThat(approvals.pending()).containsKey("s-1");
    }

    @Test
    void a_decision_disarms_it_and_a_second_one_changes_nothing() {
        approvals.apply(event("s-1", requested("c1")));

        assertThat(approvals.apply(event("s-1", new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "bob"))))
                .containsExactly(new Change.Disarmed("s-1", "c1"));
        assertThat(approvals.apply(event("s-1", new ApprovalDecided("c1", ApprovalDecision.EXPIRED, null, null))))
                .isEmpty();
        assertThat(approvals.pending()).isEmpty();
    }

    @Test
    void the_end_of_the_turn_disarms_every_approval_of_its_session_only() {
        approvals.apply(event("s-1", requested("c1")));
        approvals.apply(event("s-1", requested("c2")));
        approvals.apply(event("s-2", requested("c3")));

        assertThat(approvals.apply(event("s-1", new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"))))
                .containsExactly(new Change.Disarmed("s-1", "c1"), new Change.Disarmed("s-1", "c2"));
        assertThat(approvals.pending()).containsOnlyKeys("s-2");
    }
}
