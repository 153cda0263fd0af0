package dev.agentbus.gateway.transfer;

import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The export format, and what an import accepts: line numbers in every refusal. */
class JsonlLogTest {
    static EventEnvelope at(long seq, SessionEvent event) {
        return new EventEnvelope("e" + seq, "s1", seq, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(seq),
                "in-" + seq, "ada", event);
    }

    static List<EventEnvelope> turn() {
        return List.of(at(1, new SessionEvent.SessionCreated("t")),
                at(2, new SessionEvent.UserMessagePosted("hi")),
                at(3, new SessionEvent.ModelCallStarted("r1", 1)));
    }

    static List<String> lines(List<EventEnvelope> events) {
        return new ArrayList<>(events.stream().map(EventCodec::eventToJson).toList());
    }

    @Test
    void what_is_written_reads_back_as_the_same_events() throws Exception {
        String file = JsonlLog.write(turn());

        assertThat(file).endsWith("\n").hasLineCount(3);
        assertThat(JsonlLog.read(file)).isEqualTo(turn());
        assertThat(JsonlLog.read(file.replace("\n", "\r\n") + "\n\n")).isEqualTo(turn());
    }

    @Test
    void an_unknown_event_type_is_kept_as_everywhere() throws Exception {
        List<String> lines = lines(turn());
        lines.add(EventCodec.eventToJson(at(4, new SessionEvent.UnknownEvent("approval.granted.v9",
                Json.mapper().createObjectNode().put("by", "ada")))));

        List<EventEnvelope> read = JsonlLog.read(String.join("\n", lines));

        assertThat(read.getLast().event()).isInstanceOf(SessionEvent.UnknownEvent.class);
    }

    @Test
    void a_line_that_is_not_an_envelope_is_named() {
        List<String> lines = lines(turn());
        lines.set(1, "{\"type\":\"user_message.posted.v1\",\"id\":\"e2\",\"sessionId\":\"s1\",\"data\":{}}");

        assertThatThrownBy(() -> JsonlLog.read(String.join("\n", lines)))
                .isInstanceOf(JsonlLog.BadLine.class)
                .hasMessage("line 2: not an event envelope: event envelope has no numeric seq")
                .satisfies(e -> assertThat(((JsonlLog.BadLine) e).line()).isEqualTo(2));
    }

    @Test
    void blank_lines_still_count_for_the_line_number() {
        String body = EventCodec.eventToJson(turn().getFirst()) + "\n\nnot json\n";

        assertThatThrownBy(() -> JsonlLog.read(body)).hasMessageStartingWith("line 3: not an event envelope");
    }

    @Test
    void a_gap_or_a_second_session_or_a_log_without_its_start_is_refused() {
        List<String> gap = lines(turn());
        gap.remove(1);
        assertThatThrownBy(() -> JsonlLog.read(String.join("\n", gap)))
                .hasMessageStartingWith("line 2: seq 3 where 2 was expected");

        List<String> mixed = lines(turn());
        mixed.set(2, EventCodec.eventToJson(new EventEnvelope("x", "s2", 3, null, null, "ada",
                new SessionEvent.ModelCallStarted("r", 1))));
        assertThatThrownBy(() -> JsonlLog.read(String.join("\n", mixed)))
                .hasMessageStartingWith("line 3: event of session s2 in the log of session s1");

        List<String> headless = lines(turn()).subList(1, 3);
        assertThatThrownBy(() -> JsonlLog.read(String.join("\n", headless)))
                .hasMessageStartingWith("line 1: a session log starts with session.created.v1 or session.forked.v1");
    }

    @Test
    void an_empty_body_is_refused() {
        assertThatThrownBy(() -> JsonlLog.read("")).hasMessage("line 1: the file holds no events");
        assertThatThrownBy(() -> JsonlLog.read(null)).hasMessage("line 1: the file holds no events");
    }
}
