package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.tools.Risk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler's timers with the real clock and no Kafka: given events of the log, then the inputs it fires, and
 * when. The outbox records each input with the time it was handed over.
 */
class AlarmsTest {
    private record Sent(InputEnvelope input, Instant at) {
    }

    private final BlockingQueue<Sent> sent = new LinkedBlockingQueue<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final Alarms alarms = new Alarms(Clock.systemUTC(), (input, done) -> {
        sent.add(new Sent(input, Instant.now()));
        done.accept(failuresLeft.getAndDecrement() > 0 ? new RuntimeException("broker away") : null);
    });
    private final AtomicLong seq = new AtomicLong();

    @AfterEach
    void close() {
        alarms.close();
    }

    private EventEnvelope event(SessionEvent event) {
        long n = seq.incrementAndGet();
        return new EventEnvelope("e" + n, "s-1", n, Instant.now(), "in", "alice", event);
    }

    private static ApprovalRequested requested(String callId, Instant expiresAt) {
        return new ApprovalRequested(callId, "shell", "{\"command\":\"ls\"}", Risk.HIGH, "normal mode", expiresAt);
    }

    @Test
    void an_approval_requested_with_an_expiry_fires_expire_approval_at_that_time_for_the_sessions_owner()
            throws Exception {
        Instant expiresAt = Instant.now().plusMillis(400);
        alarms.apply(event(requested("c1", expiresAt)));

        Sent fired = sent.poll(5, TimeUnit.SECONDS);

        assertThat(fired).isNotNull();
        assertThat(fired.at()).as("not before the expiry").isAfterOrEqualTo(expiresAt);
        assertThat(Duration.between(expiresAt, fired.at())).as("at the expiry, not on a polling interval")
                .isLessThan(Duration.ofMillis(300));
        assertThat(fired.input().input()).isEqualTo(new SessionInput.ExpireApproval("c1"));
        assertThat(fired.input().sessionId()).isEqualTo("s-1");
        assertThat(fired.input().userId()).isEqualTo("alice");
        assertThat(fired.input().causationId()).isEqualTo("c1");
        assertThat(sent.poll(300, TimeUnit.MILLISECONDS)).as("once").isNull();
    }

    @Test
    void an_approval_decided_before_its_expiry_never_fires() throws Exception {
        alarms.apply(event(requested("c1", Instant.now().plusMillis(300))));
        alarms.apply(event(new ApprovalDecided("c1", ApprovalDecision.APPROVED, null, "alice")));

        assertThat(sent.poll(700, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void an_expiry_already_past_when_the_log_is_read_again_fires_at_once() throws Exception {
        alarms.apply(event(requested("c1", Instant.now().minusSeconds(60))));

        Sent fired = sent.poll(2, TimeUnit.SECONDS);
        assertThat(fired).isNotNull();
        assertThat(fired.input().input()).isEqualTo(new SessionInput.ExpireApproval("c1"));
    }

    @Test
    void a_time_out_kafka_did_not_take_is_sent_again() throws Exception {
        failuresLeft.set(1);
        alarms.apply(event(requested("c1", Instant.now())));

        assertThat(sent.poll(2, TimeUnit.SECONDS)).isNotNull();
        assertThat(sent.poll(3, TimeUnit.SECONDS)).as("retried after a second").isNotNull()
                .extracting(s -> s.input().input()).isEqualTo(new SessionInput.ExpireApproval("c1"));
    }

    @Test
    void waits_and_approvals_are_timed_side_by_side() throws Exception {
        alarms.apply(event(new WaitScheduled("w-1", Instant.now().plusMillis(100), null, null)));
        alarms.apply(event(requested("c1", Instant.now().plusMillis(250))));

        assertThat(sent.poll(2, TimeUnit.SECONDS).input().input()).isEqualTo(new SessionInput.WakeUp("w-1"));
        assertThat(sent.poll(2, TimeUnit.SECONDS).input().input()).isEqualTo(new SessionInput.ExpireApproval("c1"));
    }
}
