package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The worker's own note of every call it took on, on the compacted topic {@code agentbus.tool-ledger} (invariant 4):
 * STARTED is committed before a call runs, FINISHED in the transaction of its result. A call found STARTED and not
 * FINISHED by the next owner of its partition was cut short by a worker that died; it is reported "interrupted, not
 * re-run", never run again.
 *
 * <p>Entries are noted here as soon as their record is made, before the transaction commits, so a request is not
 * taken on twice within one batch. If that transaction fails, the processor's run ends and the ledger is read again
 * from the topic at the next assignment. Used only on the loop's thread.
 */
final class ToolLedger {
    private final KafkaSettings kafka;
    private final String workerId;
    private final Clock clock;
    /** By {@link #key}. */
    private final Map<String, ToolLedgerEntry> entries = new HashMap<>();

    ToolLedger(KafkaSettings kafka, String workerId, Clock clock) {
        this.kafka = kafka;
        this.workerId = workerId;
        this.clock = clock;
    }

    /** Call ids are unique within a session only, so the ledger is keyed by both. */
    static String key(String sessionId, String callId) {
        return sessionId + "/" + callId;
    }

    /** True when some worker took this call on already: it must not start again. */
    boolean knows(String sessionId, String callId) {
        return entries.containsKey(key(sessionId, callId));
    }

    /** Reads the whole topic again: another replica may have written to it since this worker last did. */
    void reload() {
        entries.clear();
        CompactedTopicView.readToEnd(kafka, Topics.TOOL_LEDGER.name(), "sandbox-ledger",
                bytes -> EventCodec.decodeValue(bytes, ToolLedgerEntry.class)).values()
                .forEach(e -> entries.put(key(e.sessionId(), e.callId()), e));
    }

    void forget() {
        entries.clear();
    }

    /** The calls of these partitions that were started, never finished, and are not running here. */
    List<ToolLedgerEntry> interrupted(Set<Integer> partitions, Predicate<String> runningHere) {
        return entries.values().stream()
                .filter(e -> e.state() == ToolLedgerEntry.State.STARTED && partitions.contains(e.partition())
                        && !runningHere.test(key(e.sessionId(), e.callId())))
                .toList();
    }

    /** STARTED for a call this worker takes on. */
    ProducerRecord<String, byte[]> started(TakenCall call) {
        return note(new ToolLedgerEntry(call.request().callId(), call.sessionId(), ToolLedgerEntry.State.STARTED,
                workerId, clock.instant(), call.partition(), call.userId(), call.cause().id()));
    }

    /**
     * Notes a call taken on without writing STARTED (a tool that only reads, see ToolRunner#takeOn): known here, so
     * this worker does not take it on twice, and never reported interrupted, since nothing says it started.
     */
    void takenOnUnrecorded(TakenCall call) {
        note(new ToolLedgerEntry(call.request().callId(), call.sessionId(), ToolLedgerEntry.State.FINISHED,
                workerId, clock.instant(), call.partition(), call.userId(), call.cause().id()));
    }

        /** FINISHED for a call this worker ran (or gave up). */
    ProducerRecord<String, byte[]> finished(TakenCall call) {
        return note(new ToolLedgerEntry(call.request().callId(), call.sessionId(), ToolLedgerEntry.State.FINISHED,
                workerId, clock.instant(), call.partition(), call.userId(), call.cause().id()));
    }

    /** FINISHED for a call found interrupted. */
    ProducerRecord<String, byte[]> finished(ToolLedgerEntry started) {
        return note(new ToolLedgerEntry(started.callId(), started.sessionId(), ToolLedgerEntry.State.FINISHED,
                workerId, clock.instant(), started.partition(), started.userId(), started.causationId()));
    }

    private ProducerRecord<String, byte[]> note(ToolLedgerEntry entry) {
        String key = key(entry.sessionId(), entry.callId());
        entries.put(key, entry);
        return new ProducerRecord<>(Topics.TOOL_LEDGER.name(), key, EventCodec.encodeValue(entry));
    }
}
