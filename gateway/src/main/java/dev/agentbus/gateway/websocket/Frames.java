package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a client's whole message (fragments joined, size checked) into a {@link Frame}. Pure, so every malformed
 * shape is tested without a socket.
 *
 * <ul>
 *   <li>A text message whose first non-blank character is <code>{</code> is a command,
 *       {@code {"command": "<name>", "args": {...}, "id": <string or number>}}, and must be valid JSON. Any other
 *       text is a chat message (OS-Agent's plain string).</li>
 *   <li>A binary message is an upload (OS-Agent's frontend format): a 4-byte big-endian length N, N bytes of a JSON
 *       header {@code {"command": "upload_document", "file_name": "…", "id": …}} (the file name may also be in
 *       {@code args}, with an optional {@code path}), then the file's raw bytes.</li>
 * </ul>
 */
final class Frames {
    /** The largest JSON header of a binary upload: a name, a path and an id, with room to spare. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    static final String UPLOAD = "upload_document";

    private Frames() {
    }

    static Frame text(String text) {
        String start = text.stripLeading();
        if (start.isEmpty()) {
            return new Frame.Malformed(null, null, "the message is empty: send a command as JSON, "
                    + "{\"command\": \"<name>\", \"args\": {...}}, or the text of a chat message");
        }
        if (!start.startsWith("{")) {
            ObjectNode args = Json.mapper().createObjectNode().put("prompt", text);
            return new Frame.Command(null, "chat", args, null);
        }
        JsonNode root;
        try {
            root = Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            return new Frame.Malformed(null, null, "the message starts with '{' but is not valid JSON: "
                    + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            return new Frame.Malformed(null, null, "the message starts with '{' but is not a JSON object");
        }
        return command((ObjectNode) root, null);
    }

    static Frame binary(byte[] message) {
        if (message.length < 4) {
            return new Frame.Malformed(null, UPLOAD, "a binary message starts with the 4-byte big-endian length of "
                    + "its JSON header; this one has only " + message.length + " bytes");
        }
        int headerLength = ByteBuffer.wrap(message, 0, 4).getInt();
        if (headerLength < 2 || headerLength > MAX_HEADER_BYTES) {
            return new Frame.Malformed(null, UPLOAD, "the header length " + Integer.toUnsignedString(headerLength)
                    + " in the first 4 bytes (big-endian) is not between 2 and " + MAX_HEADER_BYTES);
        }
        if (headerLength > message.length - 4) {
            return new Frame.Malformed(null, UPLOAD, "the first 4 bytes announce a header of " + headerLength
                    + " bytes, but only " + (message.length - 4) + " bytes follow");
        }
        JsonNode header;
        try {
            header = Json.mapper().readTree(new String(message, 4, headerLength, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            return new Frame.Malformed(null, UPLOAD, "the header of the binary message is not valid JSON: "
                    + e.getOriginalMessage());
        }
        if (header == null || !header.isObject()) {
            return new Frame.Malformed(null, UPLOAD, "the header of the binary message is not a JSON object");
        }
        byte[] content = Arrays.copyOfRange(message, 4 + headerLength, message.length);
        Frame frame = command((ObjectNode) header, content);
        if (frame instanceof Frame.Command c && !UPLOAD.equals(c.name())) {
            return new Frame.Malformed(c.id(), c.name(), "a binary message carries an upload: its header's command "
                    + "must be " + UPLOAD + ", not '" + c.name() + "'");
        }
        if (frame instanceof Frame.Command c) {
            // OS-Agent's header holds file_name beside command; args holds it too in the text form.
            ObjectNode args = c.args();
            for (String field : new String[]{"file_name", "path"}) {
                if (!args.has(field) && header.has(field)) {
                    args.set(field, header.get(field));
                }
            }
        }
        return frame;
    }

    private static Frame command(ObjectNode root, byte[] payload) {
        JsonNode id = root.get("id");
        if (id != null && !id.isNull() && !id.isTextual() && !id.isNumber()) {
            return new Frame.Malformed(null, textOrNull(root.get("command")), "id must be a string or a number");
        }
        if (id != null && id.isNull()) {
            id = null;
        }
        JsonNode command = root.get("command");
        if (command == null || !command.isTextual() || command.asText().isBlank()) {
            return new Frame.Malformed(id, null, "command is required: send {\"command\": \"<name>\", "
                    + "\"args\": {...}}");
        }
        JsonNode args = root.get("args");
        if (args != null && !args.isNull() && !args.isObject()) {
            return new Frame.Malformed(id, command.asText(), "args must be a JSON object");
        }
        ObjectNode copy = args == null || args.isNull() ? Json.mapper().createObjectNode() : ((ObjectNode) args).deepCopy();
        return new Frame.Command(id, command.asText(), copy, payload);
    }

    private static String textOrNull(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : null;
    }
}
