package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.gateway.readmodels.TableProjection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies one polled batch of session-log records to every read model, in one database transaction together with
 * the offsets they move to. That is what makes the projection idempotent: either the rows and the offsets are both
 * written or neither is, so after a crash the projector re-reads exactly the records whose rows were lost.
 *
 * <p>Under the offsets lock the batch first compares the stored offsets with what the projector last saw:
 * <ul>
 *   <li>stored below expected: a rebuild emptied the tables (here or in another gateway replica); nothing is applied
 *       and the projector seeks back to the stored offsets;</li>
 *   <li>stored above expected: another replica applied some of these records already; they are skipped.</li>
 * </ul>
 * Records that are not events at all are counted and logged, not applied (the orchestrator, their only writer,
 * dead-letters bad inputs, so one here is a bug worth a warning, not a reason to stop every read model).
 */
final class ProjectionBatch {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectionBatch.class);

    /**
     * What the transaction did.
     *
     * @param stored  the offsets now stored: the projector's new expectation
     * @param rewound true when nothing was applied because the stored offsets went back (a rebuild)
     */
    record Outcome(Map<Integer, Long> stored, boolean rewound, int eventsApplied, int recordsSkipped) {
    }

    private ProjectionBatch() {
    }

    static Outcome apply(Connection db, List<ConsumerRecord<String, byte[]>> records, Map<Integer, Long> expected)
            throws SQLException {
        ProjectionOffsets.lock(db);
        Map<Integer, Long> stored = ProjectionOffsets.read(db);
        for (ConsumerRecord<String, byte[]> r : records) {
            if (stored.getOrDefault(r.partition(), 0L) < expected.getOrDefault(r.partition(), 0L)) {
                return new Outcome(stored, true, 0, 0);
            }
        }

        List<EventEnvelope> events = new ArrayList<>();
        Map<Integer, Long> moved = new HashMap<>();
        int skipped = 0;
        for (ConsumerRecord<String, byte[]> r : records) {
            if (r.offset() < stored.getOrDefault(r.partition(), 0L)) {
                continue; // applied already, by another replica
            }
            moved.put(r.partition(), r.offset() + 1);
            try {
                if (r.value() == null) {
                    throw new MalformedRecordException("the record has no value");
                }
                events.add(EventCodec.decodeEvent(r.value()));
            } catch (MalformedRecordException e) {
                skipped++;
                LOG.warn("read models: skipped unreadable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(),
                        e.getMessage());
            }
        }
        if (moved.isEmpty()) {
            return new Outcome(stored, false, 0, 0);
        }

        List<TableProjection> projections = Projections.forOneBatch();
        for (TableProjection p : projections) {
            p.load(db, events);
        }
        for (EventEnvelope e : events) {
            for (TableProjection p : projections) {
                p.apply(e);
            }
        }
        for (TableProjection p : projections) {
            p.save(db);
        }
        ProjectionOffsets.write(db, moved);
        ProjectionRuns.count(db, events.size(), skipped);

        Map<Integer, Long> now = new HashMap<>(stored);
        now.putAll(moved);
        return new Outcome(now, false, events.size(), skipped);
    }
}
