package dev.agentbus.events.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.io.IOException;
import java.time.Instant;

/**
 * Reads a well-formed event record of a known type in one pass over its bytes, binding the payload straight from
 * the parser instead of building a JSON tree first (several times cheaper on a long replay). It answers only when
 * the record is plainly the usual kind; for anything else it returns null and {@link EventCodec} decodes the record
 * the one defined way, so both paths always agree (EventCodecTest checks they do).
 */
final class StreamingEventReader {
    private StreamingEventReader() {
    }

    static EventEnvelope read(byte[] bytes, ObjectMapper json, WireTypes<SessionEvent> types) {
        try (JsonParser p = json.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String type = null;
            String id = null;
            String sessionId = null;
            String time = null;
            String causationId = null;
            String userId = null;
            long seq = 0;
            SessionEvent event = null;
            int seen = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                int bit = switch (field) {
                    case "type" -> 1;
                    case "id" -> 2;
                    case "sessionId" -> 4;
                    case "seq" -> 8;
                    case "time" -> 16;
                    case "causationId" -> 32;
                    case "userId" -> 64;
                    case "data" -> 128;
                    default -> 0;
                };
                if ((seen & bit) != 0) {
                    return null; // a repeated field: the tree reader's rule (the last one wins) decides
                }
                seen |= bit;
                switch (field) {
                    case "type" -> type = string(p, value);
                    case "id" -> id = string(p, value);
                    case "sessionId" -> sessionId = string(p, value);
                    case "time" -> time = string(p, value);
                    case "causationId" -> causationId = string(p, value);
                    case "userId" -> userId = string(p, value);
                    case "seq" -> {
                        if (value != JsonToken.VALUE_NUMBER_INT) {
                            return null;
                        }
                        seq = p.getLongValue();
                    }
                    case "data" -> {
                        Class<? extends SessionEvent> cls = type == null ? null : types.classOf(type);
                        if (cls == null || value != JsonToken.START_OBJECT) {
                            return null; // type after data, an unknown type, or a payload that is not an object
                        }
                        event = json.readValue(p, cls);
                    }
                    default -> p.skipChildren();
                }
                boolean textField = bit != 0 && bit != 8 && bit != 128;
                if (textField && value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                    return null; // a text field holding something else
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null || event == null
                    || (seen & 8) == 0 || blank(type) || blank(id) || blank(sessionId)) {
                return null;
            }
            return new EventEnvelope(id, sessionId, seq, time == null ? null : Instant.parse(time), causationId,
                    userId, event);
        } catch (IOException | RuntimeException unusual) {
            return null; // not JSON, a payload that does not bind, a time that does not parse: the tree reader says why
        }
    }

    private static String string(JsonParser p, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_STRING ? p.getText() : null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
