package dev.agentbus.scheduler.inbox;

import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The inbox's timers, without Kafka: given the records of {@code agentbus.inbox} in order, it keeps one timer per
 * task that has not started, and when one is due sends {@code start_inbox_task.v1} to the session whose id is the
 * task's. A task is sent once per run of the scheduler; a second send after a restart (before the gateway marked the
 * task started) is harmless, because the orchestrator starts a task only in a session that does not exist yet.
 */
final class InboxTimers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InboxTimers.class);

    /** Timers beyond this are armed for this long and re-armed when they fire early. */
    private static final Duration MAX_DELAY = Duration.ofDays(400);

    /** Where fired inputs go; {@code done} gets null once the input is durable, or why it is not. */
    interface Outbox {
        void send(InputEnvelope input, Consumer<Exception> done);
    }

    private final Clock clock;
    private final Outbox outbox;
    private final Map<String, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();
    /** Tasks sent in this run, so a record read again (a follower restart) does not send them twice. */
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("scheduler-inbox-timer").factory());

    InboxTimers(Clock clock, Outbox outbox) {
        this.clock = clock;
        this.outbox = outbox;
    }

    /**
     * Applies one record of the inbox topic: a task that has not started is armed (again, if it changed), a started
     * one or a tombstone ({@code task} null: cancelled) disarms its key.
     */
    void apply(String id, InboxTask task) {
        disarm(id);
        if (task == null || task.startedAt() != null || task.text() == null || task.text().isBlank()
                || sent.contains(id)) {
            return;
        }
        arm(task);
    }

    /** The ids of the tasks waiting for their time, for tests and logs. */
    Set<String> armed() {
        return Set.copyOf(timers.keySet());
    }

    private void disarm(String id) {
        ScheduledFuture<?> f = timers.remove(id);
        if (f != null) {
            f.cancel(false);
        }
    }

    private void arm(InboxTask task) {
        // Saturating: a record written by something else may hold any time; it must not break the scheduler.
        Instant due = task.at() == null ? clock.instant() : task.at();
        Duration until = Duration.between(clock.instant(), due);
        long delay = until.isNegative() ? 0 : until.compareTo(MAX_DELAY) > 0 ? MAX_DELAY.toMillis() : until.toMillis();
        LOG.info("inbox task {} of {} armed for {} (in {} ms)", task.id(), task.userId(), due, delay);
        timers.put(task.id(), timer.schedule(() -> fire(task, due), delay, TimeUnit.MILLISECONDS));
    }

    private void fire(InboxTask task, Instant due) {
        if (clock.instant().isBefore(due)) {
            arm(task); // a far timer armed for MAX_DELAY: not due yet
            return;
        }
        timers.remove(task.id());
        sent.add(task.id());
        InputEnvelope input = new InputEnvelope(UUID.randomUUID().toString(), task.id(), clock.instant(), task.id(),
                task.userId(), new SessionInput.StartInboxTask(task.title(), task.text()));
        outbox.send(input, error -> {
            if (error != null) {
                // Kafka was unreachable for the producer's whole delivery time-out: try again, or the task is lost.
                LOG.error("inbox task {} not sent, retrying in 1 s: {}", task.id(), error.toString());
                sent.remove(task.id());
                timers.put(task.id(), timer.schedule(() -> fire(task, due), 1, TimeUnit.SECONDS));
            } else {
                LOG.info("inbox task {} of {} sent at {} for {}", task.id(), task.userId(), clock.instant(), due);
            }
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
