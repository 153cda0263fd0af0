package dev.agentbus.gateway.openai;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * The response bodies of the OpenAI-compatible endpoint, in the exact shape of OpenAI's chat completions API
 * (snake_case names, {@code object} tags), kept apart from Agentbus' own state so neither leaks into the other.
 */
final class OpenAiWire {
    private OpenAiWire() {
    }

    /** The model the endpoint offers: the agent, whatever model server it uses behind it. */
    static final String MODEL = "agentbus-agent";

    record Model(String id, String object, long created, @JsonProperty("owned_by") String ownedBy) {
        static Model agent() {
            return new Model(MODEL, "model", 0, "agentbus");
        }
    }

    record ModelList(String object, List<Model> data) {
        static ModelList of(List<Model> models) {
            return new ModelList("list", models);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Message(String role, String content, @JsonProperty("reasoning_content") String reasoningContent) {
    }

    record Choice(int index, Message message, @JsonProperty("finish_reason") String finishReason) {
    }

    record Usage(@JsonProperty("prompt_tokens") long promptTokens,
                 @JsonProperty("completion_tokens") long completionTokens,
                 @JsonProperty("total_tokens") long totalTokens) {
    }

    record Completion(String id, String object, long created, String model, List<Choice> choices, Usage usage) {
        static Completion of(String id, long created, Message message, String finishReason, Usage usage) {
            return new Completion(id, "chat.completion", created, MODEL, List.of(new Choice(0, message, finishReason)),
                    usage);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delta(String role, String content, @JsonProperty("reasoning_content") String reasoningContent) {
    }

    /** One streamed choice; {@code finish_reason} is null until the last chunk, and written as null, as OpenAI does. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ChunkChoice(int index, Delta delta, @JsonProperty("finish_reason") String finishReason) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Chunk(String id, String object, long created, String model, List<ChunkChoice> choices, Usage usage) {
        static Chunk delta(String id, long created, Delta delta) {
            return new Chunk(id, "chat.completion.chunk", created, MODEL, List.of(new ChunkChoice(0, delta, null)),
                    null);
        }

        static Chunk finish(String id, long created, String finishReason) {
            return new Chunk(id, "chat.completion.chunk", created, MODEL,
                    List.of(new ChunkChoice(0, new Delta(null, null, null), finishReason)), null);
        }

        /** The usage chunk OpenAI sends last when {@code stream_options.include_usage} is set: no choices. */
        static Chunk usage(String id, long created, Usage usage) {
            return new Chunk(id, "chat.completion.chunk", created, MODEL, List.of(), usage);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ErrorDetail(String message, String type, String param, String code) {
    }

    record ErrorBody(ErrorDetail error) {
        static ErrorBody of(String message, String type, String code) {
            return new ErrorBody(new ErrorDetail(message, type, null, code));
        }
    }
}
