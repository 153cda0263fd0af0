package dev.agentbus.modelclient;

import java.util.List;
import java.util.Objects;

/**
 * One message of the conversation sent to the model, in the four roles an agent loop needs.
 *
 * <p>The records are nested on purpose: {@code ChatMessage.System} as a top-level class would shadow
 * {@code java.lang.System} in every file that imports it.
 */
public sealed interface ChatMessage
        permits ChatMessage.System, ChatMessage.User, ChatMessage.Assistant, ChatMessage.ToolResult {

    /** Instructions for the model (role {@code system}). */
    record System(String content) implements ChatMessage {
        public System {
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * What the person said (role {@code user}), with the images they attached: sent as OpenAI's content parts, a
     * {@code text} part and one {@code image_url} part per image (a {@code data:} URL), to a model that takes images.
     */
    record User(String content, List<Image> images) implements ChatMessage {
        public User {
            Objects.requireNonNull(content, "content");
            images = images == null ? List.of() : List.copyOf(images);
        }

        public User(String content) {
            this(content, List.of());
        }
    }

    /**
     * An image sent with a user message.
     *
     * @param mediaType e.g. {@code image/png}
     * @param base64    the image's bytes in base64
     */
    record Image(String mediaType, String base64) {
        public Image {
            Objects.requireNonNull(mediaType, "mediaType");
            Objects.requireNonNull(base64, "base64");
        }

        /** The {@code data:} URL OpenAI's {@code image_url} part takes. */
        public String dataUrl() {
            return "data:" + mediaType + ";base64," + base64;
        }
    }

    /**
     * An earlier model answer (role {@code assistant}), replayed so the model sees its own tool calls.
     * {@code content} may be empty when the answer was only tool calls.
     */
    record Assistant(String content, List<ToolCall> toolCalls) implements ChatMessage {
        public Assistant {
            content = content == null ? "" : content;
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        public static Assistant text(String content) {
            return new Assistant(content, List.of());
        }
    }

    /** The outcome of one tool call (role {@code tool}), tied to the call by its id. */
    record ToolResult(String toolCallId, String content) implements ChatMessage {
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            content = content == null ? "" : content;
        }
    }
}
