package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.PendingWait;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Follows every partition of the session log from offset 0 (so pending waits are rebuilt at each start, with no
 * state of its own to lose) and arms one timer per pending wait, firing to the millisecond rather than on a
 * polling interval. A wake-up sent twice (say, just before a restart) is harmless: the orchestrator ignores a
 * wake-up for a wait that is no longer pending.
 */
final class WaitScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WaitScheduler.class);

    /** Timers beyond this are armed for this long and re-armed when they fire early (see {@link #fire}). */
    private static final Duration MAX_DELAY = Duration.ofDays(400);

    private final KafkaSettings kafka;
    private final Clock clock;
    private final PendingWaits waits = new PendingWaits();
    private final Map<String, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("scheduler-timer").factory());
    private final KafkaProducer<String, byte[]> producer;
    private final ServiceLoop loop;

    public WaitScheduler(KafkaSettings kafka, Clock clock) {
        this.kafka = kafka;
        this.clock = clock;
        this.producer = new KafkaProducer<>(kafka.producer("scheduler"));
        this.loop = new ServiceLoop("scheduler-follower", this::follow);
    }

    public void start() {
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        timers.values().forEach(f -> f.cancel(false));
        timers.clear();
        Partitions.follow(loop, kafka, "scheduler", Topics.SESSION_EVENTS.name(), true, this::apply, () -> { });
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        EventEnvelope e;
        try {
            e = EventCodec.decodeEvent(r.value());
        } catch (RuntimeException ex) {
            // The orchestrator dead-letters bad inputs; a bad event is not ours to move. Skip it.
            LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(), ex.getMessage());
            return;
        }
        switch (waits.apply(e)) {
            case PendingWaits.Change.Armed a -> arm(a.sessionId(), a.pendingWait(), e.userId());
            case PendingWaits.Change.Disarmed d -> {
                ScheduledFuture<?> f = timers.remove(d.waitId());
                if (f != null) {
                    f.cancel(false);
                }
            }
            case PendingWaits.Change.None n -> {
            }
        }
    }

    private void arm(String sessionId, PendingWait wait, String userId) {
        // Saturating: a log written by something else may hold any time; it must not break the scheduler.
        Duration until = Duration.between(clock.instant(), wait.until());
        long delay = until.isNegative() ? 0 : until.compareTo(MAX_DELAY) > 0 ? MAX_DELAY.toMillis() : until.toMillis();
        LOG.info("session {}: wake-up armed for {} (in {} ms)", sessionId, wait.until(), delay);
        timers.put(wait.waitId(), timer.schedule(() -> fire(sessionId, wait, userId), delay, TimeUnit.MILLISECONDS));
    }

    private void fire(String sessionId, PendingWait wait, String userId) {
        if (clock.instant().isBefore(wait.until())) {
            arm(sessionId, wait, userId); // a far wait armed for MAX_DELAY: not due yet
            return;
        }
        timers.remove(wait.waitId());
        InputEnvelope input = new InputEnvelope(UUID.randomUUID().toString(), sessionId, clock.instant(),
                wait.waitId(), userId, new SessionInput.WakeUp(wait.waitId()));
        producer.send(Records.input(input, "scheduler", TraceHeaders.newTrace()), (meta, error) -> {
            if (error != null) {
                // Kafka was unreachable for the producer's whole delivery time-out: try again, or the session
                // would wait forever. A wake-up that arrives twice is ignored by the orchestrator.
                LOG.error("wake-up of session {} not sent, retrying in 1 s: {}", sessionId, error.toString());
                timers.put(wait.waitId(), timer.schedule(() -> fire(sessionId, wait, userId), 1, TimeUnit.SECONDS));
            } else {
                LOG.info("session {}: woken at {} for wait until {}", sessionId, clock.instant(), wait.until());
            }
        });
    }

    @Override
    public void close() {
        loop.close();
        timer.shutdownNow();
        producer.close(Duration.ofSeconds(2));
    }
}
