package dev.agentbus.testkit.model;

import static dev.agentbus.testkit.model.Exchanges.JSON;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The JSON shapes of OpenAI's chat completions: a whole {@code chat.completion} and the
 * {@code chat.completion.chunk}s of a stream. Only shapes; what goes into them and when is the route's and the
 * stream's business.
 */
final class CompletionJson {

    private CompletionJson() {
    }

    static ObjectNode completion(String id, String model, ScriptedReply reply, ScriptedUsage usage) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        if (reply.content() == null || reply.content().isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", reply.content());
        }
        if (reply.reasoning() != null) {
            message.put("reasoning_content", reply.reasoning());
        }
        if (!reply.toolCalls().isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (ScriptedToolCall call : reply.toolCalls()) {
                ObjectNode node = calls.addObject().put("id", call.id()).put("type", "function");
                node.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
            }
        }
        message.putNull("refusal");

        ObjectNode root = envelope(id, model, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.effectiveFinishReason());
        if (!usage.omitted()) {
            root.set("usage", usageNode(usage));
        }
        return root;
    }

    /** One stream chunk carrying {@code delta}; {@code finishReason} null on all but the last. */
    static ObjectNode chunk(String id, String model, ObjectNode delta, String finishReason, boolean includeUsage) {
        ObjectNode root = envelope(id, model, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            root.putNull("usage"); // OpenAI sends "usage": null on every chunk but the last when asked for usage
        }
        return root;
    }

    /** The stream's closing chunk: no choices, only the usage. */
    static ObjectNode usageChunk(String id, String model, ScriptedUsage usage) {
        ObjectNode root = envelope(id, model, "chat.completion.chunk");
        root.putArray("choices");
        root.set("usage", usageNode(usage));
        return root;
    }

    private static ObjectNode envelope(String id, String model, String object) {
        return JSON.createObjectNode()
                .put("id", id)
                .put("object", object)
                .put("created", Instant.now().getEpochSecond())
                .put("model", model)
                .put("system_fingerprint", "fp_scripted");
    }

    private static ObjectNode usageNode(ScriptedUsage usage) {
        return JSON.createObjectNode()
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens());
    }
}
