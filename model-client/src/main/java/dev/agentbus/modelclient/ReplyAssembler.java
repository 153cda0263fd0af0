package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Builds one {@link ModelReply} from pieces, the same way for streamed chunks and for a whole reply
 * (which is simply one big piece of each kind), so both modes give identical results.
 *
 * <p>Tolerant of the servers this project targets: a tool-call delta without its {@code function} object,
 * chunks after the finish chunk, reasoning in several deltas (joined), and {@code <think>} blocks inside the
 * content. Not thread-safe: one instance per reply.
 */
final class ReplyAssembler {

    /** Field names servers use for reasoning outside the content (DeepSeek/vLLM/LM Studio, Ollama/OpenRouter). */
    private static final List<String> REASONING_FIELDS = List.of("reasoning_content", "reasoning");

    private final DeltaListener listener;
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder thinkReasoning = new StringBuilder();
    private final StringBuilder fieldReasoning = new StringBuilder();
    private final ThinkTagSplitter splitter;
    private final List<PartialCall> calls = new ArrayList<>();
    private final Map<Long, PartialCall> callsByIndex = new HashMap<>();
    private String model;
    private TokenCounts usage = TokenCounts.ZERO;
    private String finishReason = "";

    private static final class PartialCall {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }

    ReplyAssembler(String requestedModel, DeltaListener listener) {
        this.model = requestedModel;
        this.listener = listener;
        this.splitter = new ThinkTagSplitter(new ThinkTagSplitter.Sink() {
            @Override
            public void content(String text) {
                content.append(text);
                listener.onContent(text);
            }

            @Override
            public void reasoning(String text) {
                thinkReasoning.append(text);
                listener.onReasoning(text);
            }
        });
    }

    void model(String answeredBy) {
        if (answeredBy != null && !answeredBy.isBlank()) {
            model = answeredBy;
        }
    }

    void content(String piece) {
        splitter.feed(piece);
    }

    /** Reads a reasoning field of a message or a delta, under either of the names servers use. */
    void reasoningFrom(JsonNode messageOrDelta) {
        for (String field : REASONING_FIELDS) {
            JsonNode value = messageOrDelta.get(field);
            if (value != null && !value.isNull()) {
                if (value.isTextual() && !value.asText().isEmpty()) {
                    fieldReasoning.append(value.asText());
                    listener.onReasoning(value.asText());
                }
                return; // a server sending both names means the same text; take the first only
            }
        }
    }

    /**
     * One tool-call piece. In a stream the first piece of a call has index, id and name and later ones
     * only the index and more arguments; a whole reply gives each call in one piece.
     *
     * @param index the call's position, or {@code null} when the server sent none
     */
    void toolCall(Long index, String id, String name, String argumentsPiece) {
        PartialCall call = index == null ? null : callsByIndex.get(index);
        if (index == null && id == null && name == null && !calls.isEmpty()) {
            call = calls.getLast(); // no index and nothing new: continues the previous call
        }
        // Some servers reuse index 0 for every parallel call; a different id means a new call.
        if (call != null && id != null && call.id != null && !call.id.equals(id)) {
            call = null;
        }
        if (call == null) {
            call = new PartialCall();
            calls.add(call);
            if (index != null) {
                callsByIndex.put(index, call);
            }
        }
        if (call.id == null && id != null && !id.isBlank()) {
            call.id = id;
        }
        if (call.name == null && name != null && !name.isBlank()) {
            call.name = name;
        }
        if (argumentsPiece != null) {
            call.arguments.append(argumentsPiece);
        }
    }

    void finishReason(String reason) {
        if (reason != null && !reason.isBlank()) {
            finishReason = reason;
        }
    }

    /** The last usage seen wins: some servers repeat a growing usage on every chunk. */
    void usage(JsonNode reported) {
        if (reported == null || !reported.isObject()) {
            return;
        }
        long prompt = reported.path("prompt_tokens").asLong(0);
        long completion = reported.path("completion_tokens").asLong(0);
        long total = reported.path("total_tokens").asLong(0);
        usage = new TokenCounts(prompt, completion, total > 0 ? total : prompt + completion);
    }

    ModelReply finish() {
        splitter.finish();
        List<ToolCall> toolCalls = new ArrayList<>();
        for (PartialCall call : calls) {
            if (call.name == null) {
                continue; // an argument fragment without a function name cannot be run; drop it
            }
            // The tool result must quote the call's id, and the session log needs every call to have
            // one; servers that omit it (older llama.cpp, Gemini's compatibility layer) get one made up.
            String id = call.id != null ? call.id : "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
            toolCalls.add(new ToolCall(id, call.name, call.arguments.toString()));
        }
        String reasoning = join(fieldReasoning.toString().strip(), thinkReasoning.toString().strip());
        return new ModelReply(model, content.toString(), reasoning, toolCalls, usage, finishReason);
    }

    private static String join(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : a + "\n" + b;
    }
}
