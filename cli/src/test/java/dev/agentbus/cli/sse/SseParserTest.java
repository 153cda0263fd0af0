package dev.agentbus.cli.sse;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SseParserTest {

    private static List<SseEvent> parse(String stream) throws IOException {
        return SseParser.parseAll(new StringReader(stream));
    }

    @Test
    void a_blank_line_dispatches_event_id_and_data() throws IOException {
        assertThat(parse("event: tool_call.requested.v1\nid: 5\ndata: {\"seq\":5}\n\n"))
                .containsExactly(new SseEvent("tool_call.requested.v1", "{\"seq\":5}", "5"));
    }

    @Test
    void multi_line_data_is_joined_with_newlines() throws IOException {
        assertThat(parse("data: first\ndata: second\ndata:\ndata: fourth\n\n"))
                .extracting(SseEvent::data).containsExactly("first\nsecond\n\nfourth");
    }

    @Test
    void an_event_without_a_name_is_a_message() throws IOException {
        assertThat(parse("data: x\n\n")).extracting(SseEvent::event).containsExactly("message");
    }

    @Test
    void comments_are_ignored() throws IOException {
        assertThat(parse(": keep-alive\n\n:another\ndata: x\n: between\n\n"))
                .containsExactly(new SseEvent("message", "x", ""));
    }

    @Test
    void only_one_space_after_the_colon_is_dropped() throws IOException {
        assertThat(parse("data:no space\n\ndata:  two spaces\n\n")).extracting(SseEvent::data)
                .containsExactly("no space", " two spaces");
    }

    @Test
    void a_field_without_a_colon_has_an_empty_value() throws IOException {
        assertThat(parse("data\n\n")).extracting(SseEvent::data).containsExactly("");
    }

    @Test
    void the_value_may_contain_colons() throws IOException {
        assertThat(parse("data: {\"a\":\"b:c\"}\n\n")).extracting(SseEvent::data).containsExactly("{\"a\":\"b:c\"}");
    }

    @Test
    void a_block_without_data_is_not_dispatched_and_forgets_its_event_name() throws IOException {
        assertThat(parse("event: ping\n\ndata: x\n\n"))
                .containsExactly(new SseEvent("message", "x", ""));
    }

    @Test
    void the_last_id_carries_over_to_later_events() throws IOException {
        assertThat(parse("id: 7\ndata: a\n\nevent: delta\ndata: b\n\nid: 8\ndata: c\n\n"))
                .extracting(SseEvent::lastEventId).containsExactly("7", "7", "8");
    }

    @Test
    void an_id_with_a_nul_is_ignored() throws IOException {
        assertThat(parse("id: 3\ndata: a\n\nid: 4\u0000x\ndata: b\n\n"))
                .extracting(SseEvent::lastEventId).containsExactly("3", "3");
    }

    @Test
    void crlf_and_cr_line_endings_work() throws IOException {
        assertThat(parse("event: e\r\ndata: one\r\ndata: two\r\n\r\ndata: three\r\rdata: four\r\r"))
                .extracting(SseEvent::data).containsExactly("one\ntwo", "three", "four");
    }

    @Test
    void an_incomplete_event_at_the_end_is_dropped() throws IOException {
        assertThat(parse("data: whole\n\ndata: half")).extracting(SseEvent::data).containsExactly("whole");
    }

    @Test
    void a_leading_byte_order_mark_is_skipped() throws IOException {
        assertThat(parse("\uFEFFevent: delta\ndata: x\n\n")).extracting(SseEvent::event).containsExactly("delta");
    }

    @Test
    void unknown_fields_are_ignored_and_retry_is_remembered() {
        SseParser parser = new SseParser();
        assertThat(parser.accept("foo: bar")).isNull();
        assertThat(parser.accept("retry: 1500")).isNull();
        assertThat(parser.accept("retry: soon")).isNull();
        assertThat(parser.accept("data: x")).isNull();
        assertThat(parser.accept("")).isEqualTo(new SseEvent("message", "x", ""));
        assertThat(parser.retryMillis()).isEqualTo(1500);
    }

    @Test
    void the_event_name_does_not_leak_into_the_next_event() throws IOException {
        assertThat(parse("event: delta\ndata: a\n\ndata: b\n\n")).extracting(SseEvent::event)
                .containsExactly("delta", "message");
    }
}
