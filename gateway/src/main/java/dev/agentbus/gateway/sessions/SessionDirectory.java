package dev.agentbus.gateway.sessions;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The gateway's view of every session: the events and folded state, read from the session log (all partitions,
 * from offset 0, following), plus the live deltas of the stream topic (from now on; they are ephemeral).
 * It answers queries and feeds SSE subscribers. The view trails the log by milliseconds; the orchestrator stays the
 * authority, which is why an input the view lets through can still be rejected (as an input.rejected.v1 event).
 *
 * <p>Kept in memory for now; PostgreSQL read models replace this for lists and search in a later issue.
 */
public final class SessionDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDirectory.class);

    /** Receives a session's events in seq order, and its live deltas. Called on the follower threads. */
    public interface Subscriber {
        void onEvent(EventEnvelope event);

        void onDelta(StreamChunk chunk);
    }

    private static final class Entry {
        final List<EventEnvelope> events = new ArrayList<>();
        final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
        SessionState state;

        Entry(String id) {
            state = SessionState.initial(id);
        }
    }

    private final Map<String, Entry> sessions = new HashMap<>();
    private final KafkaSettings kafka;
    private final java.util.concurrent.CountDownLatch caughtUp = new java.util.concurrent.CountDownLatch(1);
    private final ServiceLoop eventsLoop;
    private final ServiceLoop streamLoop;

    public SessionDirectory(KafkaSettings kafka) {
        this.kafka = kafka;
        // The log from the start (the view is rebuilt at every start); deltas from now on (they are ephemeral).
        this.eventsLoop = new ServiceLoop("gateway-events", loop -> Partitions.follow(loop, kafka, "gateway",
                Topics.SESSION_EVENTS.name(), true, this::onEventRecord, caughtUp::countDown));
        this.streamLoop = new ServiceLoop("gateway-stream", loop -> Partitions.follow(loop, kafka, "gateway",
                Topics.SESSION_STREAM.name(), false, this::onStreamRecord, () -> { }));
    }

    public void start() {
        eventsLoop.start();
        streamLoop.start();
    }

    public synchronized Optional<SessionState> state(String sessionId) {
        Entry e = sessions.get(sessionId);
        return e == null || !e.state.exists() ? Optional.empty() : Optional.of(e.state);
    }

    public synchronized List<EventEnvelope> events(String sessionId, long afterSeq) {
        Entry e = sessions.get(sessionId);
        if (e == null) {
            return List.of();
        }
        return e.events.stream().filter(ev -> ev.seq() > afterSeq).toList();
    }

    public synchronized List<SessionState> list(String userId) {
        return sessions.values().stream().map(e -> e.state)
                .filter(s -> userId == null ? s.exists() : s.isOwnedBy(userId))
                .sorted(Comparator.comparing(SessionState::updatedAt).reversed())
                .toList();
    }

    /**
     * Replays the events after {@code afterSeq} to the subscriber and registers it for what follows, under one
     * lock, so it sees every event exactly once even while new ones arrive.
     */
    public synchronized Runnable subscribe(String sessionId, long afterSeq, Subscriber subscriber) {
        Entry e = sessions.computeIfAbsent(sessionId, Entry::new);
        for (EventEnvelope ev : e.events) {
            if (ev.seq() > afterSeq) {
                subscriber.onEvent(ev);
            }
        }
        e.subscribers.add(subscriber);
        return () -> e.subscribers.remove(subscriber);
    }

    /** Waits until the view has the session (it was just created) or the time is up. */
    public synchronized boolean awaitSession(String sessionId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (state(sessionId).isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    private synchronized void onEventRecord(ConsumerRecord<String, byte[]> r) {
        EventEnvelope ev;
        try {
            ev = EventCodec.decodeEvent(r.value());
        } catch (MalformedRecordException e) {
            LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            return;
        }
        Entry e = sessions.computeIfAbsent(ev.sessionId(), Entry::new);
        if (ev.seq() <= e.state.lastSeq()) {
            return; // already seen (the follower re-read after a reconnect)
        }
        e.events.add(ev);
        e.state = SessionFold.evolve(e.state, ev);
        for (Subscriber s : e.subscribers) {
            s.onEvent(ev);
        }
        if (e.state.deleted()) {
            e.events.clear(); // nobody may read them any more: the memory goes too
        }
        notifyAll();
    }

    private void onStreamRecord(ConsumerRecord<String, byte[]> r) {
        StreamChunk chunk;
        try {
            chunk = EventCodec.decodeValue(r.value(), StreamChunk.class);
        } catch (MalformedRecordException e) {
            return;
        }
        List<Subscriber> subs;
        synchronized (this) {
            Entry e = sessions.get(chunk.sessionId());
            subs = e == null ? List.of() : List.copyOf(e.subscribers);
        }
        subs.forEach(s -> s.onDelta(chunk));
    }


    /** Waits until the view holds the whole log as it was at start, so no existing session answers 404. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        eventsLoop.close();
        streamLoop.close();
    }
}
