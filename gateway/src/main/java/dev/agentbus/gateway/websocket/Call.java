package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One command of one connection, as a handler sees it: the client's arguments (read with the typed getters, which
 * answer a missing or mistyped one with a {@code bad_request} naming it), who asks and in which session, and where
 * streamed pieces go.
 *
 * @param request the WebSocket upgrade request: it carries the authenticated caller, so
 *                {@link dev.agentbus.gateway.sessions.SessionAccess} checks each command as it checks an HTTP request
 */
record Call(Frame.Command frame, String userId, String sessionId, HttpRequest<?> request, Outbox outbox) {

    JsonNode id() {
        return frame.id();
    }

    String name() {
        return frame.name();
    }

    ObjectNode args() {
        return frame.args();
    }

    /** Sends a streamed piece of this command's answer. */
    void send(Reply reply) {
        outbox.send(reply);
    }

    String string(String name) {
        return optionalString(name).orElseThrow(() -> ApiException.badRequest(name + " is required (a string)"));
    }

    Optional<String> optionalString(String name) {
        JsonNode value = args().get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(name + " must be a string");
        }
        return Optional.of(value.asText());
    }

    Optional<Integer> optionalInt(String name) {
        JsonNode value = args().get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw ApiException.badRequest(name + " must be a whole number");
        }
        return Optional.of(value.asInt());
    }

    boolean flag(String name, boolean otherwise) {
        JsonNode value = args().get(name);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw ApiException.badRequest(name + " must be true or false");
        }
        return value.asBoolean();
    }

    Optional<List<String>> optionalStrings(String name) {
        JsonNode value = args().get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isArray()) {
            throw ApiException.badRequest(name + " must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw ApiException.badRequest(name + " must be an array of strings");
            }
            out.add(item.asText());
        }
        return Optional.of(out);
    }
}
