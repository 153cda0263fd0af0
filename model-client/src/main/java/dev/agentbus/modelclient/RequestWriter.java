package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Writes a chat completion request in OpenAI's wire shape, straight to bytes with a streaming generator. The
 * {@code tools} array is the same on nearly every call of an agent (its whole catalog), so it is checked and
 * written once and then reused as raw JSON until the list changes.
 */
final class RequestWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();

    /** The last tool list written, and its JSON: one entry, because a client serves one agent's catalog. */
    private record WrittenTools(List<ToolDefinition> tools, String json) {
    }

    private volatile WrittenTools lastTools = new WrittenTools(List.of(), "[]");

    /**
     * @throws IllegalArgumentException when a tool's parameters schema is not a JSON object, before anything is
     *                                  sent
     */
    byte[] write(String model, ModelSettings settings, List<ChatMessage> messages, List<ToolDefinition> tools) {
        return write(model, settings, CallSettings.NONE, messages, tools);
    }

    /**
     * @param call this call's own sampling: each field set wins over {@code settings}; {@code top_p} is only sent
     *             when the call sets it (servers differ in their default, and most users never choose one)
     */
    byte[] write(String model, ModelSettings settings, CallSettings call, List<ChatMessage> messages,
                 List<ToolDefinition> tools) {
        String toolsJson = tools.isEmpty() ? null : toolsJson(tools);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = FACTORY.createGenerator(bytes)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            g.writeNumberField("temperature", call.temperature() != null ? call.temperature()
                    : settings.temperature());
            if (call.topP() != null) {
                g.writeNumberField("top_p", call.topP());
            }
            int maxTokens = call.maxTokens() != null ? call.maxTokens() : settings.maxTokens();
            if (maxTokens > 0) {
                // max_tokens, not max_completion_tokens: the local servers this project targets (LM Studio,
                // Ollama, llama.cpp, vLLM) all understand the older name; not all know the newer one.
                g.writeNumberField("max_tokens", maxTokens);
            }
            if (call.reasoningEffort() != null) {
                g.writeStringField("reasoning_effort", call.reasoningEffort());
            }
            if (call.thinkingBudget() != null) {
                g.writeNumberField(call.thinkingBudgetField(), call.thinkingBudget());
            }
            g.writeArrayFieldStart("messages");
            for (ChatMessage message : messages) {
                writeMessage(g, message);
            }
            g.writeEndArray();
            if (toolsJson != null) {
                g.writeFieldName("tools");
                g.writeRawValue(toolsJson);
            }
            if (settings.stream()) {
                g.writeBooleanField("stream", true);
                // Without this OpenAI itself sends no usage when streaming; other servers ignore or honour it.
                g.writeObjectFieldStart("stream_options");
                g.writeBooleanField("include_usage", true);
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a request to memory", e);
        }
        return bytes.toByteArray();
    }

    private static void writeMessage(JsonGenerator g, ChatMessage message) throws IOException {
        g.writeStartObject();
        switch (message) {
            case ChatMessage.System system -> {
                g.writeStringField("role", "system");
                g.writeStringField("content", system.content());
            }
            case ChatMessage.User user -> {
                g.writeStringField("role", "user");
                if (user.images().isEmpty()) {
                    g.writeStringField("content", user.content());
                } else {
                    // Content parts only when there is an image: a plain string is what every server takes.
                    g.writeArrayFieldStart("content");
                    g.writeStartObject();
                    g.writeStringField("type", "text");
                    g.writeStringField("text", user.content());
                    g.writeEndObject();
                    for (ChatMessage.Image image : user.images()) {
                        g.writeStartObject();
                        g.writeStringField("type", "image_url");
                        g.writeObjectFieldStart("image_url");
                        g.writeStringField("url", image.dataUrl());
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
            }
            case ChatMessage.Assistant assistant -> {
                g.writeStringField("role", "assistant");
                // An answer that was only tool calls goes without content, as OpenAI documents it; an empty
                // string would be a (blank) text answer as well.
                if (!assistant.content().isEmpty() || assistant.toolCalls().isEmpty()) {
                    g.writeStringField("content", assistant.content());
                }
                if (!assistant.toolCalls().isEmpty()) {
                    g.writeArrayFieldStart("tool_calls");
                    for (ToolCall call : assistant.toolCalls()) {
                        g.writeStartObject();
                        g.writeStringField("id", call.id());
                        g.writeStringField("type", "function");
                        g.writeObjectFieldStart("function");
                        g.writeStringField("name", call.name());
                        g.writeStringField("arguments", call.argumentsJson());
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
            }
            case ChatMessage.ToolResult result -> {
                g.writeStringField("role", "tool");
                g.writeStringField("tool_call_id", result.toolCallId());
                g.writeStringField("content", result.content());
            }
        }
        g.writeEndObject();
    }

    private String toolsJson(List<ToolDefinition> tools) {
        WrittenTools last = lastTools;
        if (last.tools() == tools || last.tools().equals(tools)) {
            return last.json();
        }
        StringBuilder json = new StringBuilder("[");
        for (ToolDefinition tool : tools) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"type\":\"function\",\"function\":{\"name\":").append(quoted(tool.name()))
                    .append(",\"description\":").append(quoted(tool.description()))
                    .append(",\"parameters\":").append(schema(tool)).append("}}");
        }
        String written = json.append(']').toString();
        lastTools = new WrittenTools(List.copyOf(tools), written);
        return written;
    }

    /** The schema travels as a JSON object, not as a string: checked here, once per tool list. */
    private static String schema(ToolDefinition tool) {
        JsonNode schema;
        try {
            schema = JSON.readTree(tool.parametersJsonSchema());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool '" + tool.name() + "' has a parameters schema that is not valid "
                    + "JSON: " + e.getOriginalMessage(), e);
        }
        if (schema == null || !schema.isObject()) {
            throw new IllegalArgumentException("tool '" + tool.name() + "' has a parameters schema that is not a "
                    + "JSON object");
        }
        return schema.toString();
    }

    private static String quoted(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string cannot be written as JSON", e);
        }
    }
}
