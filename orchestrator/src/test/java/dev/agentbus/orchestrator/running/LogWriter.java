package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes session logs to partition 0 of session-events the way the engine does: transactions of a few events of
 * one session, sessions interleaved, and — when given a {@link SnapshotWriter} — its snapshots after each commit.
 * Remembers every state it folded, so tests can compare a rebuild with the truth at any seq.
 */
final class LogWriter implements AutoCloseable {
    static final Instant T0 = Instant.parse("2025-03-14T09:00:00Z");

    private final KafkaProducer<String, byte[]> producer;
    private final SnapshotWriter snapshots;
    final Map<String, SessionState> states = new LinkedHashMap<>();
    final Map<String, List<EventEnvelope>> logs = new HashMap<>();
    /** The offset of every event written, per session, in seq order. */
    final Map<String, List<Long>> offsets = new HashMap<>();

    LogWriter(KafkaSettings kafka, SnapshotWriter snapshots) {
        this(kafka, snapshots, new SnapshotCoverage(0));
    }

    /** Carries on where a loader left off: with its coverage (and give it its states too). */
    LogWriter(KafkaSettings kafka, SnapshotWriter snapshots, SnapshotCoverage coverage) {
        this.producer = new KafkaProducer<>(
                SnapshotWriter.producerSettings(kafka, "test-log-writer-" + WRITERS.incrementAndGet()));
        this.producer.initTransactions();
        this.snapshots = snapshots;
        if (snapshots != null) {
            snapshots.adopt(coverage);
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger WRITERS = new java.util.concurrent.atomic.AtomicInteger();

    /** Appends the sessions' events, {@code perTransaction} events of one session per transaction, round robin. */
    LogWriter write(Map<String, List<SessionEvent>> sessions, int perTransaction) {
        Map<String, Integer> next = new HashMap<>();
        boolean more = true;
        while (more) {
            more = false;
            for (Map.Entry<String, List<SessionEvent>> s : sessions.entrySet()) {
                int from = next.getOrDefault(s.getKey(), 0);
                int to = Math.min(from + perTransaction, s.getValue().size());
                if (from < to) {
                    append(s.getKey(), s.getValue().subList(from, to));
                    next.put(s.getKey(), to);
                    more |= to < s.getValue().size();
                }
            }
        }
        return this;
    }

    /** Appends events of one session in one transaction (with the next seqs), then writes due snapshots. */
    void append(String sessionId, List<SessionEvent> events) {
        List<SnapshotWriter.Sent> sent = new ArrayList<>();
        producer.beginTransaction();
        SessionState state = states.getOrDefault(sessionId, SessionState.initial(sessionId));
        for (SessionEvent event : events) {
            long seq = state.lastSeq() + 1;
            EventEnvelope e = new EventEnvelope("evt-" + sessionId + "-" + seq, sessionId, seq, T0.plusSeconds(seq),
                    "inp-" + seq, "usr-ada", event);
            state = SessionFold.evolve(state, e);
            logs.computeIfAbsent(sessionId, k -> new ArrayList<>()).add(e);
            var record = Records.event(e, "test", TraceHeaders.newTrace());
            sent.add(new SnapshotWriter.Sent(sessionId, seq,
                    producer.send(new ProducerRecord<>(record.topic(), 0, record.key(), record.value(),
                            record.headers()))));
        }
        producer.commitTransaction();
        states.put(sessionId, state);
        for (SnapshotWriter.Sent s : sent) {
            try {
                offsets.computeIfAbsent(sessionId, k -> new ArrayList<>()).add(s.metadata().get().offset());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        if (snapshots != null) {
            snapshots.afterCommit(producer, sent, Map.of(0, states));
        }
    }

    /** Writes a raw record (or a tombstone, for null) to partition 0 of the snapshot topic. */
    void rawSnapshot(String key, byte[] value) {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(Topics.SESSION_SNAPSHOTS.name(), 0, key, value));
        producer.commitTransaction();
    }

    @Override
    public void close() {
        producer.close();
    }
}
