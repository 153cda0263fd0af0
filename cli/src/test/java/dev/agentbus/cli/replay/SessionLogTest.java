package dev.agentbus.cli.replay;

import dev.agentbus.cli.Events;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionLogTest {
    private static List<String> lines(List<EventEnvelope> events) {
        return new ArrayList<>(events.stream().map(EventCodec::eventToJson).toList());
    }

    @Test
    void an_exported_log_reads_back_as_the_same_events() throws Exception {
        List<EventEnvelope> log = Events.turn(TurnOutcome.COMPLETED, "done", null);
        List<String> lines = lines(log);
        lines.add(""); // an editor's trailing newline

        assertThat(SessionLog.parse("f.jsonl", lines)).isEqualTo(log);
    }

    @Test
    void a_line_that_is_not_an_envelope_is_named_with_its_number() {
        List<String> lines = lines(Events.turn(TurnOutcome.COMPLETED, "done", null));
        lines.set(2, "{\"type\":\"model_call.started.v1\",\"id\":\"x\"");

        assertThatThrownBy(() -> SessionLog.parse("run.jsonl", lines))
                .isInstanceOf(SessionLog.BadLog.class)
                .hasMessageStartingWith("run.jsonl line 3 is not an event envelope: record is not valid JSON");
    }

    @Test
    void a_gap_in_the_seqs_is_refused_with_the_line_and_the_seq_expected() {
        List<String> lines = lines(Events.turn(TurnOutcome.COMPLETED, "done", null));
        lines.remove(4);

        assertThatThrownBy(() -> SessionLog.parse("run.jsonl", lines))
                .hasMessage("run.jsonl line 5 has seq 6 where 5 was expected (a log's seqs are 1, 2, 3 … without gaps)");
    }

    @Test
    void two_sessions_in_one_file_are_refused() {
        List<String> lines = lines(Events.turn(TurnOutcome.COMPLETED, "done", null).subList(0, 2));
        EventEnvelope other = new EventEnvelope("e3", "s2", 3, null, null, "u1",
                new SessionEvent.ModelCallStarted("r", 1));
        lines.add(EventCodec.eventToJson(other));

        assertThatThrownBy(() -> SessionLog.parse("mixed.jsonl", lines))
                .hasMessageContaining("mixed.jsonl line 3 belongs to session s2");
    }

    @Test
    void an_empty_file_is_refused() {
        assertThatThrownBy(() -> SessionLog.parse("empty.jsonl", List.of("", " ")))
                .hasMessage("empty.jsonl holds no events");
    }
}
