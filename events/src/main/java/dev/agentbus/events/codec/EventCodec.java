package dev.agentbus.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.io.IOException;
import java.time.Instant;

/**
 * Reads and writes every record on the Agentbus topics as JSON.
 *
 * <p>Envelope shape, the same for events and inputs ({@code seq} only on events):
 * <pre>{"type":"tool_call.requested.v1","id":"…","sessionId":"…","seq":3,"time":"…","causationId":"…",
 *  "userId":"…","data":{…payload…}}</pre>
 *
 * <p>Two kinds of bad record are told apart on purpose (invariant 6): a well-formed envelope with a type this
 * code does not know is read as {@link SessionEvent.UnknownEvent} / {@link SessionInput.UnknownInput} and kept
 * (so is an event of a known type whose payload this code cannot read: its envelope and seq still count);
 * bytes that are not an envelope at all raise {@link MalformedRecordException} and go to the dead-letter topic.
 */
public final class EventCodec {
    public static final WireTypes<SessionEvent> EVENT_TYPES =
            new WireTypes<>(SessionEvent.class, SessionEvent.UnknownEvent.class);
    public static final WireTypes<SessionInput> INPUT_TYPES =
            new WireTypes<>(SessionInput.class, SessionInput.UnknownInput.class);
    public static final WireTypes<MemoryCommand> MEMORY_COMMAND_TYPES = new WireTypes<>(MemoryCommand.class);

    private static final ObjectMapper JSON = Json.mapper();

    private EventCodec() {
    }

    // ---- wire type names ------------------------------------------------------------------------------------

    /** The wire type name of an event (an unknown one keeps the name it was read with). */
    public static String typeOf(SessionEvent event) {
        return event instanceof SessionEvent.UnknownEvent u ? u.type() : EVENT_TYPES.nameOf(event.getClass());
    }

    /** The wire type name of an input (an unknown one keeps the name it was read with). */
    public static String typeOf(SessionInput input) {
        return input instanceof SessionInput.UnknownInput u ? u.type() : INPUT_TYPES.nameOf(input.getClass());
    }

    // ---- session events -------------------------------------------------------------------------------------

    public static byte[] encodeEvent(EventEnvelope e) {
        return bytes(eventNode(e));
    }

    public static String eventToJson(EventEnvelope e) {
        return eventNode(e).toString();
    }

    public static ObjectNode eventNode(EventEnvelope e) {
        ObjectNode node = JSON.createObjectNode();
        node.put("type", typeOf(e.event()));
        node.put("id", e.id());
        node.put("sessionId", e.sessionId());
        node.put("seq", e.seq());
        node.put("time", e.time() == null ? null : e.time().toString());
        node.put("causationId", e.causationId());
        node.put("userId", e.userId());
        node.set("data", e.event() instanceof SessionEvent.UnknownEvent unknown
                ? unknown.raw() : JSON.valueToTree(e.event()));
        return node;
    }

    public static EventEnvelope decodeEvent(byte[] bytes) {
        if (bytes == null) {
            throw new MalformedRecordException("record has no value");
        }
        EventEnvelope common = StreamingEventReader.read(bytes, JSON, EVENT_TYPES);
        // Anything unusual (an unknown type, a payload this code cannot bind, a field out of place) is left to the
        // tree reader, which is the definition of how a record decodes; the streaming one only makes the usual
        // record cheaper (a replay or a projector decodes millions).
        return common != null ? common : eventFromNode(parse(bytes));
    }

    public static EventEnvelope decodeEvent(String json) {
        return eventFromNode(parse(json));
    }

    public static EventEnvelope eventFromNode(JsonNode node) {
        String type = required(node, "type");
        JsonNode data = node.path("data");
        Class<? extends SessionEvent> cls = EVENT_TYPES.classOf(type);
        SessionEvent event;
        try {
            event = cls == null ? new SessionEvent.UnknownEvent(type, data) : payload(data, cls, type);
        } catch (MalformedRecordException unreadablePayload) {
            // The envelope is sound, so the event keeps its place (and its seq) in the log; only its payload is
            // beyond this code (a newer writer's enum value, say). Kept as unknown, like an unknown type.
            event = new SessionEvent.UnknownEvent(type, data);
        }
        if (!node.hasNonNull("seq") || !node.get("seq").canConvertToLong()) {
            throw new MalformedRecordException("event envelope has no numeric seq");
        }
        return new EventEnvelope(required(node, "id"), required(node, "sessionId"), node.get("seq").asLong(),
                time(node), text(node, "causationId"), text(node, "userId"), event);
    }

    // ---- session inputs -------------------------------------------------------------------------------------

    public static byte[] encodeInput(InputEnvelope e) {
        ObjectNode node = JSON.createObjectNode();
        node.put("type", typeOf(e.input()));
        node.put("id", e.id());
        node.put("sessionId", e.sessionId());
        node.put("time", e.time() == null ? null : e.time().toString());
        node.put("causationId", e.causationId());
        node.put("userId", e.userId());
        node.set("data", e.input() instanceof SessionInput.UnknownInput u ? u.raw() : JSON.valueToTree(e.input()));
        return bytes(node);
    }

    public static InputEnvelope decodeInput(byte[] bytes) {
        JsonNode node = parse(bytes);
        String type = required(node, "type");
        JsonNode data = node.path("data");
        Class<? extends SessionInput> cls = INPUT_TYPES.classOf(type);
        SessionInput input = cls == null ? new SessionInput.UnknownInput(type, data) : payload(data, cls, type);
        return new InputEnvelope(required(node, "id"), required(node, "sessionId"), time(node),
                text(node, "causationId"), text(node, "userId"), input);
    }

    // ---- memory commands (typed, no envelope) ---------------------------------------------------------------

    public static byte[] encodeMemoryCommand(MemoryCommand command) {
        ObjectNode node = JSON.createObjectNode();
        node.put("type", MEMORY_COMMAND_TYPES.nameOf(command.getClass()));
        node.set("data", JSON.valueToTree(command));
        return bytes(node);
    }

    /** Returns null for a well-formed command of an unknown type (skipped by the reader). */
    public static MemoryCommand decodeMemoryCommand(byte[] bytes) {
        JsonNode node = parse(bytes);
        String type = required(node, "type");
        Class<? extends MemoryCommand> cls = MEMORY_COMMAND_TYPES.classOf(type);
        return cls == null ? null : payload(node.path("data"), cls, type);
    }

    // ---- plain values (stream chunks, memory documents, ledger entries) --------------------------------------

    public static byte[] encodeValue(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T decodeValue(byte[] bytes, Class<T> type) {
        try {
            return JSON.readValue(bytes, type);
        } catch (IOException e) {
            throw new MalformedRecordException("not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private static <T> T payload(JsonNode data, Class<T> cls, String type) {
        JsonNode d = data.isMissingNode() ? JSON.createObjectNode() : data;
        if (!d.isObject()) {
            throw new MalformedRecordException("payload of " + type + " is not a JSON object");
        }
        try {
            return JSON.treeToValue(d, cls);
        } catch (IOException | IllegalArgumentException e) {
            throw new MalformedRecordException("payload of " + type + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static JsonNode parse(byte[] bytes) {
        if (bytes == null) {
            throw new MalformedRecordException("record has no value");
        }
        try {
            JsonNode node = JSON.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new MalformedRecordException("record is not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new MalformedRecordException("record is not valid JSON: " + firstLine(e.getMessage()), e);
        }
    }

    private static JsonNode parse(String json) {
        return parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static String required(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new MalformedRecordException("envelope field '" + field + "' is missing");
        }
        return v.asText();
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Instant time(JsonNode node) {
        String t = text(node, "time");
        try {
            return t == null ? null : Instant.parse(t);
        } catch (RuntimeException e) {
            throw new MalformedRecordException("envelope field 'time' is not an ISO-8601 instant: " + t, e);
        }
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
