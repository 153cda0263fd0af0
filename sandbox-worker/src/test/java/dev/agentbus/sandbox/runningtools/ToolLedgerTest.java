package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.topics.Topics;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

import static dev.agentbus.sandbox.runningtools.CallQueueTest.call;
import static org.assertj.core.api.Assertions.assertThat;

/** Which calls the ledger knows, and which it finds interrupted, without a broker (reading the topic needs one). */
class ToolLedgerTest {
    final ToolLedger ledger = new ToolLedger(new KafkaSettings("unused:9092", 1, "0"), "sandbox-worker-0",
            Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC));

    @Test
    void a_call_is_known_as_soon_as_its_started_entry_is_made() {
        TakenCall a1 = call("a", "a1", 0);

        var record = ledger.started(a1);

        assertThat(ledger.knows("a", "a1")).isTrue();
        assertThat(ledger.knows("b", "a1")).as("call ids are unique within a session only").isFalse();
        assertThat(record.topic()).isEqualTo(Topics.TOOL_LEDGER.name());
        assertThat(record.key()).isEqualTo("a/a1");
        ToolLedgerEntry entry = EventCodec.decodeValue(record.value(), ToolLedgerEntry.class);
        assertThat(entry.state()).isEqualTo(ToolLedgerEntry.State.STARTED);
        assertThat(entry.causationId()).isEqualTo("e-a1");
        assertThat(entry.worker()).isEqualTo("sandbox-worker-0");
    }

    @Test
    void started_never_finished_and_not_running_here_is_interrupted_in_the_given_partitions_only() {
        ledger.started(call("a", "a1", 0));
        ledger.started(call("b", "b1", 1));
        ledger.started(call("c", "c1", 0));
        ledger.finished(call("c", "c1", 0));
        ledger.started(call("d", "d1", 0));

        assertThat(ledger.interrupted(Set.of(0), key -> key.equals("d/d1")))
                .extracting(ToolLedgerEntry::callId).containsExactly("a1");
    }

    @Test
    void an_interrupted_call_reported_finished_is_no_longer_interrupted() {
        ledger.started(call("a", "a1", 0));
        ToolLedgerEntry started = ledger.interrupted(Set.of(0), key -> false).getFirst();

        var record = ledger.finished(started);

        assertThat(ledger.interrupted(Set.of(0), key -> false)).isEmpty();
        assertThat(EventCodec.decodeValue(record.value(), ToolLedgerEntry.class).state())
                .isEqualTo(ToolLedgerEntry.State.FINISHED);
    }
}
