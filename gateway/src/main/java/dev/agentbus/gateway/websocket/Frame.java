package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A whole message from a client, as {@link Frames} read it: a command to run, or why it is not one. */
sealed interface Frame {

    /**
     * A command: {@code {"command", "args", "id"}} in a text message, a plain text message (a chat), or an upload in a
     * binary message.
     *
     * @param id      the client's request id, echoed in every reply; null when it sent none
     * @param args    never null; an empty object when the client sent none
     * @param payload the raw bytes of a binary upload; null for a text message
     */
    record Command(JsonNode id, String name, ObjectNode args, byte[] payload) implements Frame {
    }

    /** Not a command; answered with an error, and the connection stays open. */
    record Malformed(JsonNode id, String command, String message) implements Frame {
    }
}
