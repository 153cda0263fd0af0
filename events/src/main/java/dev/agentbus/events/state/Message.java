package dev.agentbus.events.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.agentbus.events.session.ToolCallSpec;

import java.util.List;

/**
 * The conversation as the model sees it, folded from the log. Reasoning is kept but never sent back.
 * In JSON each message says which it is in {@code kind}: user, assistant, tool or notice.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Message.User.class, name = "user"),
        @JsonSubTypes.Type(value = Message.Assistant.class, name = "assistant"),
        @JsonSubTypes.Type(value = Message.Tool.class, name = "tool"),
        @JsonSubTypes.Type(value = Message.Notice.class, name = "notice")})
public sealed interface Message {
    long seq();

    /** {@code images}: workspace paths of the images attached to the message; null (absent in JSON) when none. */
    record User(long seq, String text, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> images)
            implements Message {
        public User {
            images = images == null || images.isEmpty() ? null : List.copyOf(images);
        }

        public User(long seq, String text) {
            this(seq, text, null);
        }

        /** The attached images' paths, empty when none. Not a bean getter, so it never shows in the JSON. */
        public List<String> imagePaths() {
            return images == null ? List.of() : images;
        }
    }

    record Assistant(long seq, String content, String reasoning, List<ToolCallSpec> toolCalls) implements Message {
        public Assistant {
            toolCalls = List.copyOf(toolCalls);
        }
    }

    /** A tool result, as text for the model. */
    record Tool(long seq, String callId, String name, String content) implements Message {
    }

    /** Something the platform tells the agent, such as "the time you waited for has come". */
    record Notice(long seq, String text) implements Message {
    }
}
