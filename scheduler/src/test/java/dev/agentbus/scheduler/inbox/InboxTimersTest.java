package dev.agentbus.scheduler.inbox;

import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inbox's timers with the real clock and no Kafka: given records of the inbox topic, then the inputs it fires,
 * and when.
 */
class InboxTimersTest {
    private record Sent(InputEnvelope input, Instant at) {
    }

    private final BlockingQueue<Sent> sent = new LinkedBlockingQueue<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final InboxTimers timers = new InboxTimers(Clock.systemUTC(), (input, done) -> {
        sent.add(new Sent(input, Instant.now()));
        done.accept(failuresLeft.getAndDecrement() > 0 ? new RuntimeException("broker away") : null);
    });

    @AfterEach
    void close() {
        timers.close();
    }

    private static InboxTask task(String id, Instant at) {
        return new InboxTask(id, "alice", "Report", "write the report", at, Instant.now(), null);
    }

    @Test
    void a_task_for_a_time_starts_its_session_at_that_time_for_its_user() throws Exception {
        Instant at = Instant.now().plusMillis(400);
        timers.apply("t1", task("t1", at));

        Sent fired = sent.poll(5, TimeUnit.SECONDS);

        assertThat(fired).isNotNull();
        assertThat(fired.at()).as("not before its time").isAfterOrEqualTo(at);
        assertThat(Duration.between(at, fired.at())).isLessThan(Duration.ofMillis(300));
        assertThat(fired.input().sessionId()).as("the session's id is the task's").isEqualTo("t1");
        assertThat(fired.input().userId()).isEqualTo("alice");
        assertThat(fired.input().input()).isEqualTo(new SessionInput.StartInboxTask("Report", "write the report"));
        assertThat(sent.poll(300, TimeUnit.MILLISECONDS)).as("once").isNull();
    }

    @Test
    void a_task_for_now_or_a_past_time_starts_at_once() throws Exception {
        timers.apply("t1", task("t1", Instant.now().minusSeconds(60)));

        assertThat(sent.poll(2, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void a_cancelled_task_never_starts() throws Exception {
        timers.apply("t1", task("t1", Instant.now().plusMillis(300)));
        timers.apply("t1", null);

        assertThat(timers.armed()).isEmpty();
        assertThat(sent.poll(700, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void a_task_marked_started_is_not_armed_so_a_restart_does_not_send_it_again() throws Exception {
        InboxTask started = task("t1", Instant.now().minusSeconds(5)).started(Instant.now());
        timers.apply("t1", started);

        assertThat(timers.armed()).isEmpty();
        assertThat(sent.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void a_task_read_again_after_it_was_sent_is_not_sent_twice() throws Exception {
        InboxTask t = task("t1", Instant.now());
        timers.apply("t1", t);
        assertThat(sent.poll(2, TimeUnit.SECONDS)).isNotNull();

        timers.apply("t1", t);

        assertThat(sent.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void a_start_the_broker_did_not_take_is_sent_again() throws Exception {
        failuresLeft.set(1);
        timers.apply("t1", task("t1", Instant.now()));

        assertThat(sent.poll(2, TimeUnit.SECONDS)).as("the failed attempt").isNotNull();
        assertThat(sent.poll(3, TimeUnit.SECONDS)).as("the retry").isNotNull();
    }

    @Test
    void a_far_task_is_armed_and_not_sent_yet() throws Exception {
        timers.apply("t1", task("t1", Instant.now().plus(Duration.ofDays(30))));

        assertThat(timers.armed()).containsExactly("t1");
        assertThat(sent.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }
}
