package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The timers of the session log, without Kafka: given its events in order, it keeps one timer per pending wait
 * (which fires {@code wake_up.v1}) and per pending approval (which fires {@code expire_approval.v1}), each to the
 * millisecond rather than on a polling interval, and hands the input to an {@link Outbox}. An input sent twice (say,
 * just before a restart) is harmless: the orchestrator ignores a wake-up or a time-out for what is no longer pending.
 */
final class Alarms implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Alarms.class);

    /** Timers beyond this are armed for this long and re-armed when they fire early (see {@link #fire}). */
    private static final Duration MAX_DELAY = Duration.ofDays(400);

    /** Where fired inputs go; {@code done} gets null once the input is durable, or why it is not. */
    interface Outbox {
        void send(InputEnvelope input, java.util.function.Consumer<Exception> done);
    }

    /** One timer: what to send, to whom, when. */
    private record Alarm(String key, String sessionId, String userId, Instant due, String causationId,
                         SessionInput input, String what) {
    }

    private final Clock clock;
    private final Outbox outbox;
    private final PendingWaits waits = new PendingWaits();
    private final PendingApprovals approvals = new PendingApprovals();
    private final Map<String, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("scheduler-timer").factory());

    Alarms(Clock clock, Outbox outbox) {
        this.clock = clock;
        this.outbox = outbox;
    }

    /** Folds one event of the log and arms or disarms what it changed. Called from one thread, in log order. */
    void apply(EventEnvelope e) {
        switch (waits.apply(e)) {
            case PendingWaits.Change.Armed a -> arm(new Alarm("wait:" + a.pendingWait().waitId(), a.sessionId(),
                    e.userId(), a.pendingWait().until(), a.pendingWait().waitId(),
                    new SessionInput.WakeUp(a.pendingWait().waitId()), "wake-up"));
            case PendingWaits.Change.Disarmed d -> disarm("wait:" + d.waitId());
            case PendingWaits.Change.None n -> {
            }
        }
        for (PendingApprovals.Change change : approvals.apply(e)) {
            switch (change) {
                case PendingApprovals.Change.Armed a -> arm(new Alarm(approvalKey(a.sessionId(), a.callId()),
                        a.sessionId(), e.userId(), a.expiresAt(), a.callId(),
                        new SessionInput.ExpireApproval(a.callId()), "approval time-out"));
                case PendingApprovals.Change.Disarmed d -> disarm(approvalKey(d.sessionId(), d.callId()));
            }
        }
    }

    /** How many approvals with a time-out are armed: asked, and neither decided nor expired yet. */
    int approvalsPending() {
        return (int) timers.keySet().stream().filter(k -> k.startsWith("approval:")).count();
    }

    /** Forgets every timer, before the log is read again from its start. */
    void clear() {
        timers.values().forEach(f -> f.cancel(false));
        timers.clear();
    }

    private static String approvalKey(String sessionId, String callId) {
        return "approval:" + sessionId + "/" + callId;
    }

    private void disarm(String key) {
        ScheduledFuture<?> f = timers.remove(key);
        if (f != null) {
            f.cancel(false);
        }
    }

    private void arm(Alarm alarm) {
        // Saturating: a log written by something else may hold any time; it must not break the scheduler.
        Duration until = Duration.between(clock.instant(), alarm.due());
        long delay = until.isNegative() ? 0 : until.compareTo(MAX_DELAY) > 0 ? MAX_DELAY.toMillis() : until.toMillis();
        LOG.info("session {}: {} armed for {} (in {} ms)", alarm.sessionId(), alarm.what(), alarm.due(), delay);
        timers.put(alarm.key(), timer.schedule(() -> fire(alarm), delay, TimeUnit.MILLISECONDS));
    }

    private void fire(Alarm alarm) {
        if (clock.instant().isBefore(alarm.due())) {
            arm(alarm); // a far timer armed for MAX_DELAY: not due yet
            return;
        }
        timers.remove(alarm.key());
        InputEnvelope input = new InputEnvelope(UUID.randomUUID().toString(), alarm.sessionId(), clock.instant(),
                alarm.causationId(), alarm.userId(), alarm.input());
        outbox.send(input, error -> {
            if (error != null) {
                // Kafka was unreachable for the producer's whole delivery time-out: try again, or the session
                // would wait forever.
                LOG.error("{} of session {} not sent, retrying in 1 s: {}", alarm.what(), alarm.sessionId(),
                        error.toString());
                timers.put(alarm.key(), timer.schedule(() -> fire(alarm), 1, TimeUnit.SECONDS));
            } else {
                LOG.info("session {}: {} sent at {} for {}", alarm.sessionId(), alarm.what(), clock.instant(),
                        alarm.due());
            }
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
