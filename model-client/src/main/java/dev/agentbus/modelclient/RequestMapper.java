package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns this library's messages and tools into the SDK's request parameters (the OpenAI wire shape). */
final class RequestMapper {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestMapper() {}

    static ChatCompletionCreateParams params(String model, ModelSettings settings,
                                             List<ChatMessage> messages, List<ToolDefinition> tools) {
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
                .model(model)
                .temperature(settings.temperature());
        if (settings.maxTokens() > 0) {
            // max_tokens, not max_completion_tokens: the local servers this project targets (LM Studio,
            // Ollama, llama.cpp, vLLM) all understand the older name; not all know the newer one.
            params.maxTokens(settings.maxTokens());
        }
        for (ChatMessage message : messages) {
            switch (message) {
                case ChatMessage.System system -> params.addSystemMessage(system.content());
                case ChatMessage.User user -> params.addUserMessage(user.content());
                case ChatMessage.Assistant assistant -> params.addMessage(assistant(assistant));
                case ChatMessage.ToolResult result -> params.addMessage(ChatCompletionToolMessageParam.builder()
                        .toolCallId(result.toolCallId())
                        .content(result.content())
                        .build());
            }
        }
        for (ToolDefinition tool : tools) {
            params.addTool(ChatCompletionFunctionTool.builder()
                    .function(FunctionDefinition.builder()
                            .name(tool.name())
                            .description(tool.description())
                            .parameters(parameters(tool))
                            .build())
                    .build());
        }
        if (settings.stream()) {
            // Without this OpenAI itself sends no usage when streaming; other servers ignore or honour it.
            params.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        }
        return params.build();
    }

    private static ChatCompletionAssistantMessageParam assistant(ChatMessage.Assistant assistant) {
        ChatCompletionAssistantMessageParam.Builder builder = ChatCompletionAssistantMessageParam.builder();
        // An answer that was only tool calls goes without content, as OpenAI documents it; an empty
        // string would be a (blank) text answer as well.
        if (!assistant.content().isEmpty() || assistant.toolCalls().isEmpty()) {
            builder.content(assistant.content());
        }
        for (ToolCall call : assistant.toolCalls()) {
            builder.addToolCall(ChatCompletionMessageFunctionToolCall.builder()
                    .id(call.id())
                    .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                            .name(call.name())
                            .arguments(call.argumentsJson())
                            .build())
                    .build());
        }
        return builder.build();
    }

    /** The schema travels as a JSON object, not as a string, so it is parsed here once. */
    private static FunctionParameters parameters(ToolDefinition tool) {
        JsonNode schema;
        try {
            schema = JSON.readTree(tool.parametersJsonSchema());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool '" + tool.name() + "' has a parameters schema that is not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
        if (schema == null || !schema.isObject()) {
            throw new IllegalArgumentException("tool '" + tool.name() + "' has a parameters schema that is not a JSON object");
        }
        Map<String, JsonValue> properties = new LinkedHashMap<>();
        schema.properties().forEach(field -> properties.put(field.getKey(), JsonValue.fromJsonNode(field.getValue())));
        return FunctionParameters.builder().putAllAdditionalProperties(properties).build();
    }
}
