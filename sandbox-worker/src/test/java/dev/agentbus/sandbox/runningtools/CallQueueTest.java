package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.opentelemetry.api.trace.SpanContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-session order, the concurrency slots, giving calls up, and when a call leaves the queue. */
class CallQueueTest {
    final List<String> ran = new CopyOnWriteArrayList<>();
    final ConcurrentHashMap<String, CountDownLatch> gates = new ConcurrentHashMap<>();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger mostAtOnce = new AtomicInteger();
    final AtomicInteger finishes = new AtomicInteger();
    CallQueue queue;

    /** Runs a call: waits at its gate if it has one, and notes that it ran. */
    FinishedCall work(TakenCall call) {
        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            CountDownLatch gate = gates.get(call.request().callId());
            if (gate != null) {
                gate.await(30, TimeUnit.SECONDS);
            }
            ran.add(call.request().callId());
            return new FinishedCall(call, ToolOutcome.success("ok"), 0, false, null);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } finally {
            running.decrementAndGet();
        }
    }

    static TakenCall call(String session, String callId, int partition) {
        EventEnvelope cause = new EventEnvelope("e-" + callId, session, 1, Instant.now(), null, "alice",
                new ToolCallRequested(callId, "ls", "{}"));
        return new TakenCall(cause, (ToolCallRequested) cause.event(), partition, SpanContext.getInvalid());
    }

    @AfterEach
    void close() {
        queue.close();
    }

    @Test
    void the_calls_of_one_session_run_in_the_order_taken_on() throws Exception {
        queue = new CallQueue(4, this::work, finishes::incrementAndGet);
        gates.put("a1", new CountDownLatch(1));

        queue.submit(call("a", "a1", 0));
        queue.submit(call("a", "a2", 0));
        queue.submit(call("a", "a3", 0));
        gates.get("a1").countDown();
        queue.awaitAllFinished(Duration.ofSeconds(30));

        assertThat(ran).containsExactly("a1", "a2", "a3");
        // the loop is told after a call is queued as finished, on the call's thread: it may come a moment later
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (finishes.get() < 3 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(finishes).hasValue(3);
    }

    @Test
    void calls_of_different_sessions_run_side_by_side_up_to_the_slots() throws Exception {
        queue = new CallQueue(2, this::work, finishes::incrementAndGet);
        CountDownLatch gate = new CountDownLatch(1);
        for (String s : List.of("a", "b", "c")) {
            gates.put(s + "1", gate);
            queue.submit(call(s, s + "1", 0));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (running.get() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }

        assertThat(running.get()).as("two calls hold the two slots").isEqualTo(2);
        gate.countDown();
        queue.awaitAllFinished(Duration.ofSeconds(30));
        assertThat(ran).containsExactlyInAnyOrder("a1", "b1", "c1");
        assertThat(mostAtOnce).hasValue(2);
    }

    @Test
    void a_call_given_up_before_it_started_finishes_as_not_run() throws Exception {
        queue = new CallQueue(1, this::work, finishes::incrementAndGet);
        gates.put("a1", new CountDownLatch(1));
        queue.submit(call("a", "a1", 0));
        queue.submit(call("b", "b1", 1)); // waits for the one slot

        queue.giveUp(Set.of(1));
        gates.get("a1").countDown();
        queue.awaitAllFinished(Duration.ofSeconds(30));

        assertThat(ran).containsExactly("a1");
        FinishedCall givenUp = queue.finished().stream().filter(f -> f.call().request().callId().equals("b1"))
                .findFirst().orElseThrow();
        assertThat(givenUp.notRun()).isTrue();
        assertThat(givenUp.outcome().error()).startsWith("not run: this session moved to another sandbox-worker");
    }

    @Test
    void a_call_leaves_the_queue_only_once_it_is_reported() throws Exception {
        queue = new CallQueue(1, this::work, finishes::incrementAndGet);
        TakenCall a1 = call("a", "a1", 0);
        queue.submit(a1);
        queue.awaitAllFinished(Duration.ofSeconds(30));

        assertThat(queue.holds(a1.key())).isTrue();
        assertThat(queue.holdsCallsOf(Set.of(0))).isTrue();

        queue.reported(queue.finished());

        assertThat(queue.holds(a1.key())).isFalse();
        assertThat(queue.holdsCallsOf(Set.of(0))).isFalse();
        assertThat(queue.finished()).isEmpty();
    }

    @Test
    void a_work_that_throws_is_still_reported_and_the_sessions_next_call_runs() throws Exception {
        queue = new CallQueue(1, call -> {
            if (call.request().callId().equals("a1")) {
                throw new StackOverflowError("deep");
            }
            return work(call);
        }, finishes::incrementAndGet);
        queue.submit(call("a", "a1", 0));
        queue.submit(call("a", "a2", 0));
        queue.awaitAllFinished(Duration.ofSeconds(30));

        assertThat(queue.finished()).extracting(f -> f.call().request().callId()).containsExactly("a1", "a2");
        assertThat(queue.finished().getFirst().outcome().error()).contains("the tool failed unexpectedly");
        assertThat(ran).containsExactly("a2");
    }

    @Test
    void stopping_a_session_interrupts_its_running_call_and_gives_up_the_queued_ones_others_run_on() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        queue = new CallQueue(4, call -> {
            if (!call.request().callId().equals("a1")) {
                return work(call);
            }
            started.countDown();
            try {
                Thread.sleep(30_000); // a sleep 30 in the sandbox
                return new FinishedCall(call, ToolOutcome.success("slept"), 0, false, null);
            } catch (InterruptedException e) {
                return new FinishedCall(call, new ToolOutcome(false, "", "interrupted", null, false), 0, false, null);
            }
        }, finishes::incrementAndGet);
        queue.submit(call("a", "a1", 0));
        queue.submit(call("a", "a2", 0));
        queue.submit(call("b", "b1", 0));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        long stoppedAt = System.nanoTime();
        queue.stopSession("a");
        queue.awaitAllFinished(Duration.ofSeconds(10));

        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(queue.wasStopped(call("a", "a1", 0).key())).isTrue();
        assertThat(queue.wasStopped(call("b", "b1", 0).key())).isFalse();
        assertThat(ran).containsExactly("b1");
        assertThat(queue.finished()).filteredOn(f -> f.call().request().callId().equals("a2")).singleElement()
                .satisfies(f -> {
                    assertThat(f.notRun()).isTrue();
                    assertThat(f.outcome().error()).isEqualTo("not run: the turn was cancelled before this call started");
                });
    }
}
