package dev.agentbus.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.Samples;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.stream.StreamChunk;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The wire format: every type round-trips, unknown types are kept, and bytes that are not a record are told apart
 * from records of an unknown type (invariant 6).
 */
class EventCodecTest {
    private static final Instant TIME = Instant.parse("2025-03-14T09:26:53.118123456Z");

    // ---- every type round-trips ------------------------------------------------------------------------------------

    @Test
    void the_type_tables_cover_every_record_of_the_sealed_interfaces() {
        assertThat(new ArrayList<Class<?>>(EventCodec.EVENT_TYPES.all().values()))
                .containsExactlyInAnyOrderElementsOf(permittedExcept(SessionEvent.class, SessionEvent.UnknownEvent.class));
        assertThat(new ArrayList<Class<?>>(EventCodec.INPUT_TYPES.all().values()))
                .containsExactlyInAnyOrderElementsOf(permittedExcept(SessionInput.class, SessionInput.UnknownInput.class));
        assertThat(new ArrayList<Class<?>>(EventCodec.MEMORY_COMMAND_TYPES.all().values()))
                .containsExactlyInAnyOrderElementsOf(permittedExcept(MemoryCommand.class));
    }

    @TestFactory
    Stream<DynamicTest> every_session_event_type_round_trips() {
        assertThat(EventCodec.EVENT_TYPES.all()).isNotEmpty();
        return EventCodec.EVENT_TYPES.all().entrySet().stream().map(t -> DynamicTest.dynamicTest(t.getKey(), () -> {
            SessionEvent event = Samples.of(t.getValue());
            EventEnvelope envelope = new EventEnvelope("evt-7", "ses-1", 7, TIME, "inp-3", "usr-ada", event);

            byte[] bytes = EventCodec.encodeEvent(envelope);
            JsonNode wire = Json.mapper().readTree(bytes);

            assertThat(EventCodec.decodeEvent(bytes)).isEqualTo(envelope);
            assertThat(EventCodec.decodeEvent(new String(bytes, StandardCharsets.UTF_8))).isEqualTo(envelope);
            assertThat(EventCodec.eventToJson(envelope)).isEqualTo(new String(bytes, StandardCharsets.UTF_8));
            assertEnvelope(wire, t.getKey(), t.getValue());
            assertThat(wire.get("seq").asLong()).isEqualTo(7);
        }));
    }

    @TestFactory
    Stream<DynamicTest> every_session_input_type_round_trips() {
        assertThat(EventCodec.INPUT_TYPES.all()).isNotEmpty();
        return EventCodec.INPUT_TYPES.all().entrySet().stream().map(t -> DynamicTest.dynamicTest(t.getKey(), () -> {
            SessionInput input = Samples.of(t.getValue());
            InputEnvelope envelope = new InputEnvelope("inp-7", "ses-1", TIME, "evt-3", "usr-ada", input);

            byte[] bytes = EventCodec.encodeInput(envelope);
            JsonNode wire = Json.mapper().readTree(bytes);

            assertThat(EventCodec.decodeInput(bytes)).isEqualTo(envelope);
            assertEnvelope(wire, t.getKey(), t.getValue());
            assertThat(wire.has("seq")).as("inputs have no seq; the orchestrator numbers events only").isFalse();
        }));
    }

    @TestFactory
    Stream<DynamicTest> every_memory_command_type_round_trips() {
        assertThat(EventCodec.MEMORY_COMMAND_TYPES.all()).isNotEmpty();
        return EventCodec.MEMORY_COMMAND_TYPES.all().entrySet().stream().map(t -> DynamicTest.dynamicTest(t.getKey(), () -> {
            MemoryCommand command = Samples.of(t.getValue());

            byte[] bytes = EventCodec.encodeMemoryCommand(command);
            JsonNode wire = Json.mapper().readTree(bytes);

            assertThat(EventCodec.decodeMemoryCommand(bytes)).isEqualTo(command);
            assertThat(wire.get("type").asText()).isEqualTo(t.getKey());
            assertThat(fieldNames(wire.get("data"))).isEqualTo(componentNames(t.getValue()));
        }));
    }

    @Test
    void a_memory_command_round_trips_with_its_content() {
        var set = new MemoryCommand.SetMemory("cmd-1", "usr-ada", "- prefers short answers\n- uses Maven");
        var reset = new MemoryCommand.ResetMemory("cmd-2", "usr-ada");

        assertThat(EventCodec.decodeMemoryCommand(EventCodec.encodeMemoryCommand(set))).isEqualTo(set);
        assertThat(EventCodec.decodeMemoryCommand(EventCodec.encodeMemoryCommand(reset))).isEqualTo(reset);
        assertThat(new String(EventCodec.encodeMemoryCommand(set), StandardCharsets.UTF_8)).isEqualTo(
                "{\"type\":\"memory.set.v1\",\"data\":{\"commandId\":\"cmd-1\",\"userId\":\"usr-ada\","
                        + "\"content\":\"- prefers short answers\\n- uses Maven\"}}");
    }

    @Test
    void a_memory_command_of_an_unknown_type_is_skipped_not_malformed() {
        byte[] bytes = "{\"type\":\"memory.forget_topic.v1\",\"data\":{\"commandId\":\"c\",\"userId\":\"u\"}}"
                .getBytes(StandardCharsets.UTF_8);

        assertThat(EventCodec.decodeMemoryCommand(bytes)).isNull();
        assertThatThrownBy(() -> EventCodec.decodeMemoryCommand("{\"data\":{}}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedRecordException.class).hasMessageContaining("'type'");
    }

    @Test
    void an_envelope_with_nulls_round_trips_and_writes_them_explicitly() {
        EventEnvelope envelope = new EventEnvelope("evt-1", "ses-1", 1, null, null, null,
                new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, null, null));

        String json = EventCodec.eventToJson(envelope);

        assertThat(EventCodec.decodeEvent(json)).isEqualTo(envelope);
        assertThat(json).isEqualTo("{\"type\":\"turn.ended.v1\",\"id\":\"evt-1\",\"sessionId\":\"ses-1\",\"seq\":1,"
                + "\"time\":null,\"causationId\":null,\"userId\":null,\"data\":{\"outcome\":\"COMPLETED\"}}");
    }

    @Test
    void the_wire_format_of_an_event_is_stable() {
        EventEnvelope envelope = new EventEnvelope("evt-5", "ses-1", 5, Instant.parse("2025-03-14T09:26:55.642Z"),
                "inp-4", "usr-ada", new SessionEvent.ModelCallCompleted("req-1", "qwen", null, null,
                List.of(new ToolCallSpec("call-1", "write", "{\"path\":\"a\"}")), new TokenUsage(10, 2, 12),
                "tool_calls"));

        assertThat(EventCodec.eventToJson(envelope)).isEqualTo("{\"type\":\"model_call.completed.v1\",\"id\":\"evt-5\","
                + "\"sessionId\":\"ses-1\",\"seq\":5,\"time\":\"2025-03-14T09:26:55.642Z\",\"causationId\":\"inp-4\","
                + "\"userId\":\"usr-ada\",\"data\":{\"requestId\":\"req-1\",\"model\":\"qwen\",\"toolCalls\":[{\"id\":"
                + "\"call-1\",\"name\":\"write\",\"arguments\":\"{\\\"path\\\":\\\"a\\\"}\"}],\"usage\":{\"promptTokens\":"
                + "10,\"completionTokens\":2,\"totalTokens\":12},\"finishReason\":\"tool_calls\"}}");
    }

    @Test
    void an_empty_input_record_round_trips_with_an_empty_payload() {
        InputEnvelope cancel = new InputEnvelope("inp-1", "ses-1", TIME, null, "usr-ada", new SessionInput.CancelTurn());

        byte[] bytes = EventCodec.encodeInput(cancel);

        assertThat(EventCodec.decodeInput(bytes)).isEqualTo(cancel);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"type\":\"cancel_turn.v1\"", "\"data\":{}");
    }

    @Test
    void absent_lists_and_usage_read_as_empty_and_zero() {
        String json = envelopeJson("model_call.completed.v1", "{\"requestId\":\"req-1\",\"content\":\"hi\"}");

        var completed = (SessionEvent.ModelCallCompleted) EventCodec.decodeEvent(json).event();

        assertThat(completed.toolCalls()).isEmpty();
        assertThat(completed.usage()).isEqualTo(TokenUsage.ZERO);
        assertThat(completed.content()).isEqualTo("hi");
    }

    // ---- tolerant reading --------------------------------------------------------------------------------------------

    @Test
    void an_unknown_event_type_is_kept_with_its_raw_json_and_written_back_unchanged() throws Exception {
        String json = "{\"type\":\"future_thing.happened.v9\",\"id\":\"evt-6\",\"sessionId\":\"ses-1\",\"seq\":6,"
                + "\"time\":\"2025-03-14T10:03:12.007Z\",\"causationId\":\"inp-5\",\"userId\":\"usr-ada\","
                + "\"data\":{\"detail\":\"newer\",\"level\":3,\"tags\":[\"a\",{\"b\":null}]}}";

        EventEnvelope decoded = EventCodec.decodeEvent(json);

        assertThat(decoded.event()).isInstanceOf(SessionEvent.UnknownEvent.class);
        var unknown = (SessionEvent.UnknownEvent) decoded.event();
        assertThat(unknown.type()).isEqualTo("future_thing.happened.v9");
        assertThat(unknown.raw()).isEqualTo(Json.mapper().readTree(json).get("data"));
        assertThat(decoded.seq()).isEqualTo(6);
        assertThat(decoded.causationId()).isEqualTo("inp-5");
        assertThat(Json.mapper().readTree(EventCodec.encodeEvent(decoded))).isEqualTo(Json.mapper().readTree(json));
        assertThat(EventCodec.eventToJson(decoded)).isEqualTo(json);
    }

    @Test
    void an_unknown_input_type_is_kept_with_its_raw_json_and_written_back_unchanged() throws Exception {
        String json = "{\"type\":\"approve_tool_call.v1\",\"id\":\"inp-9\",\"sessionId\":\"ses-1\","
                + "\"time\":\"2025-03-14T10:03:12.007Z\",\"causationId\":null,\"userId\":\"usr-ada\","
                + "\"data\":{\"callId\":\"call-1\",\"approved\":true}}";

        InputEnvelope decoded = EventCodec.decodeInput(json.getBytes(StandardCharsets.UTF_8));

        var unknown = (SessionInput.UnknownInput) decoded.input();
        assertThat(unknown.type()).isEqualTo("approve_tool_call.v1");
        assertThat(unknown.raw().get("approved").asBoolean()).isTrue();
        assertThat(new String(EventCodec.encodeInput(decoded), StandardCharsets.UTF_8)).isEqualTo(json);
    }

    @Test
    void extra_unknown_fields_in_a_payload_are_ignored() {
        String json = envelopeJson("tool_call.completed.v1", "{\"callId\":\"call-1\",\"ok\":true,\"output\":\"hi\\n\","
                + "\"exitCode\":0,\"sandbox\":{\"image\":\"agentbus/sandbox:1\"},\"durationMs\":48}");

        EventEnvelope decoded = EventCodec.decodeEvent(json);

        assertThat(decoded.event()).isEqualTo(
                new SessionEvent.ToolCallCompleted("call-1", true, "hi\n", null, null, false, 48, false));
    }

    @Test
    void extra_unknown_envelope_fields_are_ignored() {
        String json = "{\"type\":\"wait.ended.v1\",\"id\":\"evt-1\",\"sessionId\":\"ses-1\",\"seq\":1,"
                + "\"ce_source\":\"/orchestrator\",\"specversion\":\"1.0\",\"data\":{\"waitId\":\"w-1\"}}";

        EventEnvelope decoded = EventCodec.decodeEvent(json);

        assertThat(decoded).isEqualTo(new EventEnvelope("evt-1", "ses-1", 1, null, null, null,
                new SessionEvent.WaitEnded("w-1")));
    }

    @Test
    void extra_unknown_fields_in_an_input_payload_are_ignored() {
        String json = "{\"type\":\"wake_up.v1\",\"id\":\"inp-1\",\"sessionId\":\"ses-1\",\"time\":null,"
                + "\"data\":{\"waitId\":\"w-1\",\"firedLate\":true}}";

        assertThat(EventCodec.decodeInput(json.getBytes(StandardCharsets.UTF_8)).input())
                .isEqualTo(new SessionInput.WakeUp("w-1"));
    }

    // ---- malformed records ------------------------------------------------------------------------------------------

    static Stream<Arguments> malformedEvents() {
        return Stream.of(
                Arguments.of("an unterminated object", "{", "not valid JSON"),
                Arguments.of("an array", "[]", "not a JSON object"),
                Arguments.of("plain text", "not json", "not valid JSON"),
                Arguments.of("a JSON string", "\"session.created.v1\"", "not a JSON object"),
                Arguments.of("no bytes at all", "", "not a JSON object"),
                Arguments.of("no type", "{\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"data\":{}}",
                        "envelope field 'type' is missing"),
                Arguments.of("a type that is not a string",
                        "{\"type\":7,\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"data\":{}}",
                        "envelope field 'type' is missing"),
                Arguments.of("no id", "{\"type\":\"wait.ended.v1\",\"sessionId\":\"s\",\"seq\":1,\"data\":{}}",
                        "envelope field 'id' is missing"),
                Arguments.of("a blank id",
                        "{\"type\":\"wait.ended.v1\",\"id\":\" \",\"sessionId\":\"s\",\"seq\":1,\"data\":{}}",
                        "envelope field 'id' is missing"),
                Arguments.of("no session id", "{\"type\":\"wait.ended.v1\",\"id\":\"e\",\"seq\":1,\"data\":{}}",
                        "envelope field 'sessionId' is missing"),
                Arguments.of("no seq", "{\"type\":\"wait.ended.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"data\":{}}",
                        "event envelope has no numeric seq"),
                Arguments.of("a null seq",
                        "{\"type\":\"wait.ended.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":null,\"data\":{}}",
                        "event envelope has no numeric seq"),
                Arguments.of("a text seq",
                        "{\"type\":\"wait.ended.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":\"one\",\"data\":{}}",
                        "event envelope has no numeric seq"),
                Arguments.of("no seq on an unknown type",
                        "{\"type\":\"future_thing.happened.v9\",\"id\":\"e\",\"sessionId\":\"s\",\"data\":{}}",
                        "event envelope has no numeric seq"),
                Arguments.of("a time that is not an instant",
                        "{\"type\":\"wait.ended.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,"
                                + "\"time\":\"yesterday\",\"data\":{}}",
                        "envelope field 'time' is not an ISO-8601 instant: yesterday"));
    }

    static Stream<Arguments> unreadablePayloads() {
        return Stream.of(
                Arguments.of("a payload field of the wrong shape", "model_call.started.v1",
                        "{\"requestId\":\"r\",\"iteration\":\"many\"}"),
                Arguments.of("a payload that is not an object", "session.created.v1", "\"hello\""),
                Arguments.of("a null payload", "session.created.v1", "null"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadablePayloads")
    void a_known_type_whose_payload_cannot_be_read_keeps_its_place_as_an_unknown_event(String what, String type,
                                                                                        String data) {
        String json = "{\"type\":\"" + type + "\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":7,\"data\":" + data + "}";
        EventEnvelope e = EventCodec.decodeEvent(json);
        assertThat(e.seq()).isEqualTo(7);
        assertThat(e.event()).isInstanceOfSatisfying(SessionEvent.UnknownEvent.class,
                u -> assertThat(u.type()).isEqualTo(type));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedEvents")
    void a_record_that_is_not_an_event_is_malformed_with_a_clear_reason(String what, String json, String reason) {
        assertThatThrownBy(() -> EventCodec.decodeEvent(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining(reason);
        assertThatThrownBy(() -> EventCodec.decodeEvent(json))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void a_record_without_a_value_is_malformed() {
        assertThatThrownBy(() -> EventCodec.decodeEvent((byte[]) null))
                .isInstanceOf(MalformedRecordException.class).hasMessage("record has no value");
        assertThatThrownBy(() -> EventCodec.decodeInput(null))
                .isInstanceOf(MalformedRecordException.class).hasMessage("record has no value");
        assertThatThrownBy(() -> EventCodec.decodeMemoryCommand(null))
                .isInstanceOf(MalformedRecordException.class).hasMessage("record has no value");
    }

    @Test
    void malformed_json_names_the_parser_problem_on_one_line() {
        assertThatThrownBy(() -> EventCodec.decodeEvent("{"))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageStartingWith("record is not valid JSON: ")
                .hasMessageNotContaining("\n")
                .hasCauseInstanceOf(java.io.IOException.class);
    }

    static Stream<Arguments> malformedInputs() {
        return Stream.of(
                Arguments.of("{", "not valid JSON"),
                Arguments.of("[]", "not a JSON object"),
                Arguments.of("not json", "not valid JSON"),
                Arguments.of("{\"type\":\"wake_up.v1\",\"sessionId\":\"s\",\"data\":{}}", "envelope field 'id' is missing"),
                Arguments.of("{\"type\":\"wake_up.v1\",\"id\":\"i\",\"data\":{}}", "envelope field 'sessionId' is missing"),
                Arguments.of("{\"id\":\"i\",\"sessionId\":\"s\",\"data\":{}}", "envelope field 'type' is missing"),
                Arguments.of("{\"type\":\"record_tool_result.v1\",\"id\":\"i\",\"sessionId\":\"s\","
                        + "\"data\":{\"durationMs\":\"long\"}}", "payload of record_tool_result.v1 cannot be read"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedInputs")
    void a_record_that_is_not_an_input_is_malformed_with_a_clear_reason(String json, String reason) {
        assertThatThrownBy(() -> EventCodec.decodeInput(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void encoding_an_unregistered_record_is_a_programming_error_not_a_malformed_record() {
        assertThatThrownBy(() -> EventCodec.EVENT_TYPES.nameOf(SessionEvent.UnknownEvent.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("UnknownEvent has no wire name");
    }

    // ---- plain values -------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(StreamChunk.Kind.class)
    void a_stream_chunk_round_trips(StreamChunk.Kind kind) {
        StreamChunk chunk = new StreamChunk("ses-1", kind, "req-1", "hel", TIME);

        byte[] bytes = EventCodec.encodeValue(chunk);

        assertThat(EventCodec.decodeValue(bytes, StreamChunk.class)).isEqualTo(chunk);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"kind\":\"" + kind.name() + "\"",
                "\"time\":\"2025-03-14T09:26:53.118123456Z\"");
    }

    @Test
    void a_memory_document_round_trips() {
        MemoryDocument doc = new MemoryDocument("usr-ada", "- prefers short answers", 4, TIME, "cmd-9");

        assertThat(EventCodec.decodeValue(EventCodec.encodeValue(doc), MemoryDocument.class)).isEqualTo(doc);
        MemoryDocument empty = MemoryDocument.empty("usr-bob");
        assertThat(EventCodec.decodeValue(EventCodec.encodeValue(empty), MemoryDocument.class)).isEqualTo(empty);
    }

    @ParameterizedTest
    @EnumSource(ToolLedgerEntry.State.class)
    void a_tool_ledger_entry_round_trips(ToolLedgerEntry.State state) {
        ToolLedgerEntry entry = new ToolLedgerEntry("call-1", "ses-1", state, "sandbox-worker-0", TIME, 2, "usr-1", "evt-1");

        assertThat(EventCodec.decodeValue(EventCodec.encodeValue(entry), ToolLedgerEntry.class)).isEqualTo(entry);
    }

    @Test
    void plain_values_ignore_unknown_fields_and_reject_garbage() {
        byte[] newer = "{\"sessionId\":\"s\",\"kind\":\"TOKEN\",\"ref\":\"r\",\"text\":\"x\",\"index\":12}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(EventCodec.decodeValue(newer, StreamChunk.class))
                .isEqualTo(new StreamChunk("s", StreamChunk.Kind.TOKEN, "r", "x", null));

        assertThatThrownBy(() -> EventCodec.decodeValue("not json".getBytes(StandardCharsets.UTF_8), StreamChunk.class))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageStartingWith("not a valid StreamChunk");
        assertThatThrownBy(() -> EventCodec.decodeValue("{\"version\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                MemoryDocument.class))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageStartingWith("not a valid MemoryDocument");
    }

    // ---- helpers ------------------------------------------------------------------------------------------------------

    private static void assertEnvelope(JsonNode wire, String type, Class<?> recordClass) {
        assertThat(wire.get("type").asText()).isEqualTo(type);
        assertThat(wire.get("sessionId").asText()).isEqualTo("ses-1");
        assertThat(wire.get("time").asText()).isEqualTo("2025-03-14T09:26:53.118123456Z");
        assertThat(wire.get("userId").asText()).isEqualTo("usr-ada");
        assertThat(wire.get("data").isObject()).isTrue();
        // The sample sets every field, so every record component must be on the wire under its own name.
        assertThat(fieldNames(wire.get("data"))).as("payload fields of " + type).isEqualTo(componentNames(recordClass));
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Set<String> componentNames(Class<?> recordClass) {
        Set<String> names = new HashSet<>();
        for (RecordComponent c : recordClass.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    /** The records of a sealed interface, also those of the sealed families it permits (PlanningEvent). */
    private static List<Class<?>> permittedExcept(Class<?> sealed, Class<?>... except) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> sub : sealed.getPermittedSubclasses()) {
            out.addAll(sub.isInterface() && sub.isSealed() ? permittedExcept(sub) : List.of(sub));
        }
        out.removeAll(Arrays.asList(except));
        return out;
    }

    private static String envelopeJson(String type, String data) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("type", type).put("id", "evt-1").put("sessionId", "ses-1").put("seq", 1);
        try {
            node.set("data", Json.mapper().readTree(data));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        return node.toString();
    }
}
