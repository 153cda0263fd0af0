package dev.agentbus.gateway.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

/**
 * What the agent takes from an OpenAI chat completion request. A chat client sends the whole conversation each
 * time; the agent's session already holds it, so only the last message, which must be the person's, starts the
 * turn. {@code model}, {@code temperature} and the like are accepted and ignored: the agent's model server and
 * settings are the operator's.
 *
 * @param text         the last user message's text
 * @param stream       whether to answer as Server-Sent Events
 * @param includeUsage {@code stream_options.include_usage}: a last chunk with the token usage
 * @param user         OpenAI's end-user id, used here as the conversation to continue; null when absent
 */
record ChatRequest(String text, boolean stream, boolean includeUsage, String user) {
    static final int MAX_TEXT_CHARS = 256 * 1024;

    /** Reads a request body, or says precisely what is wrong with it. */
    static ChatRequest parse(String body) {
        JsonNode root;
        try {
            root = body == null || body.isBlank() ? null : Json.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw OpenAiException.invalid("the body is not JSON: " + e.getOriginalMessage(), null);
        }
        if (root == null || !root.isObject()) {
            throw OpenAiException.invalid("the body must be a JSON object", null);
        }
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw OpenAiException.invalid("messages must be a non-empty array", "messages");
        }
        JsonNode last = messages.get(messages.size() - 1);
        if (!last.isObject() || !"user".equals(last.path("role").asText())) {
            throw OpenAiException.invalid("the last message must have the role user: it is what the agent answers",
                    "messages");
        }
        String text = textOf(last.get("content"));
        if (text.isBlank()) {
            throw OpenAiException.invalid("the last user message has no text", "messages");
        }
        if (text.length() > MAX_TEXT_CHARS) {
            throw OpenAiException.invalid("the last user message is longer than " + MAX_TEXT_CHARS + " characters",
                    "messages");
        }
        JsonNode stream = root.path("stream");
        if (!stream.isMissingNode() && !stream.isNull() && !stream.isBoolean()) {
            throw OpenAiException.invalid("stream must be true or false", "stream");
        }
        JsonNode user = root.path("user");
        if (!user.isMissingNode() && !user.isNull() && !user.isTextual()) {
            throw OpenAiException.invalid("user must be a string", "user");
        }
        return new ChatRequest(text, stream.asBoolean(false),
                root.path("stream_options").path("include_usage").asBoolean(false),
                user.isTextual() && !user.asText().isBlank() ? user.asText() : null);
    }

    /** A message's content: a string, or the text parts of an array of parts (images are not taken). */
    private static String textOf(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                    if (!text.isEmpty()) {
                        text.append('\n');
                    }
                    text.append(part.get("text").asText());
                } else {
                    throw OpenAiException.invalid("only text parts are taken; this agent reads no "
                            + part.path("type").asText("untyped") + " parts", "messages");
                }
            }
            return text.toString();
        }
        throw OpenAiException.invalid("a message's content must be a string or an array of text parts", "messages");
    }
}
