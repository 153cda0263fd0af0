package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the tool calls that some local models write as text in their answer instead of as native calls: a model
 * served without its tool-call parser (llama.cpp without {@code --jinja}, vLLM without
 * {@code --enable-auto-tool-choice}, an LM Studio template that does not know the model) writes the call the way its
 * chat template taught it, and the server passes it on as content. The shapes read, each as real models write it:
 * <ul>
 *   <li>Hermes, Qwen 2.5, Qwen 3: {@code <tool_call>{"name": …, "arguments": {…}}</tool_call>}, one block per call;</li>
 *   <li>Qwen3-Coder, and the XML-like style some others copy: {@code <function=NAME><parameter=P>value</parameter>
 *       </function>}, with or without a {@code <tool_call>} around it;</li>
 *   <li>Llama 3.1/3.2, Mistral ({@code [TOOL_CALLS]}), and models asked to "answer in JSON": the whole answer is a
 *       JSON object {@code {"name": …, "arguments"|"parameters": {…}}} or an array of them, bare or in a
 *       {@code ```json} fence.</li>
 * </ul>
 * Only calls to a tool the request offered count, so an answer that merely shows JSON with a "name" in it stays an
 * answer; a block naming an unknown tool leaves the whole answer as text. Pure and stateless: the caller records the
 * calls it found ({@code model_call.completed.v1}), so a replay reads them from the log and never parses again.
 */
final class TextToolCalls {
    private static final Logger LOG = LoggerFactory.getLogger(TextToolCalls.class);
    /** Trailing text after a JSON value means the answer is not just a call. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern TOOL_CALL_BLOCK = Pattern.compile("<tool_call>\\s*(.*?)\\s*(?:</tool_call>|$)",
            Pattern.DOTALL);
    private static final Pattern FUNCTION_BLOCK = Pattern.compile(
            "<function=([^>\\s]+)>\\s*(.*?)\\s*</function>", Pattern.DOTALL);
    private static final Pattern PARAMETER = Pattern.compile("<parameter=([^>\\s]+)>\\n?(.*?)\\n?</parameter>",
            Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("^```(?:json)?\\s*(.*?)\\s*```$", Pattern.DOTALL);
    private static final String MISTRAL_PREFIX = "[TOOL_CALLS]";

    /** The calls found and the answer's text without them (what the person reads as the model's words). */
    public record Found(List<ToolCall> calls, String content) {
        public Found {
            calls = List.copyOf(calls);
        }
    }

    private final Map<String, ToolDefinition> tools = new HashMap<>();

    /** @param offered the tools the request offered: only calls to these are taken */
    public TextToolCalls(List<ToolDefinition> offered) {
        for (ToolDefinition tool : offered) {
            tools.put(tool.name(), tool);
        }
    }

    /**
     * A reply without native calls whose content holds calls written as text gets them as real calls, and keeps the
     * rest of the text as its content; any other reply is returned as it is.
     */
    static ModelReply withTextToolCalls(ModelReply reply, List<ToolDefinition> tools) {
        if (reply.hasToolCalls() || tools.isEmpty()) {
            return reply;
        }
        return new TextToolCalls(tools).find(reply.content())
                .map(found -> {
                    LOG.debug("read {} tool call(s) written as text in the answer", found.calls().size());
                    return new ModelReply(reply.model(), found.content(), reply.reasoning(), found.calls(),
                            reply.usage(), reply.finishReason());
                })
                .orElse(reply);
    }

    /** The calls written in {@code content}; empty when it holds none that this request's tools can answer. */
    public Optional<Found> find(String content) {
        if (content == null || content.isBlank() || tools.isEmpty()) {
            return Optional.empty();
        }
        if (content.contains("<tool_call>") || content.contains("<function=")) {
            return blocks(content);
        }
        return wholeAnswer(content.strip());
    }

    /** {@code <tool_call>} and {@code <function=…>} blocks, anywhere in the answer; the text around them is kept. */
    private Optional<Found> blocks(String content) {
        List<ToolCall> calls = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        Pattern outer = content.contains("<tool_call>") ? TOOL_CALL_BLOCK : FUNCTION_BLOCK;
        Matcher m = outer.matcher(content);
        int end = 0;
        while (m.find()) {
            rest.append(content, end, m.start());
            end = m.end();
            List<ToolCall> inBlock = outer == TOOL_CALL_BLOCK ? toolCallBlock(m.group(1))
                    : java.util.Collections.singletonList(function(m));
            if (inBlock.isEmpty() || inBlock.stream().anyMatch(java.util.Objects::isNull)) {
                return Optional.empty();
            }
            calls.addAll(inBlock);
        }
        rest.append(content.substring(end));
        return calls.isEmpty() ? Optional.empty() : Optional.of(new Found(calls, rest.toString().strip()));
    }

    /** The inside of one {@code <tool_call>} block: JSON, or {@code <function=…>} blocks. */
    private List<ToolCall> toolCallBlock(String inside) {
        if (inside.contains("<function=")) {
            List<ToolCall> calls = new ArrayList<>();
            Matcher f = FUNCTION_BLOCK.matcher(inside);
            while (f.find()) {
                calls.add(function(f));
            }
            return calls;
        }
        JsonNode json = json(unfenced(inside));
        ArrayList<ToolCall> one = new ArrayList<>();
        one.add(json == null ? null : call(json));
        return one;
    }

    /** One {@code <function=NAME>} block; null when the tool is not offered. */
    private ToolCall function(Matcher block) {
        ToolDefinition tool = tools.get(block.group(1));
        if (tool == null) {
            return null;
        }
        ObjectNode arguments = JSON.createObjectNode();
        Matcher p = PARAMETER.matcher(block.group(2));
        while (p.find()) {
            arguments.set(p.group(1), value(tool, p.group(1), p.group(2)));
        }
        return new ToolCall(newId(), tool.name(), arguments.toString());
    }

    /** The whole answer as one JSON call or an array of them (bare, fenced, or after Mistral's marker). */
    private Optional<Found> wholeAnswer(String content) {
        String text = content.startsWith(MISTRAL_PREFIX) ? content.substring(MISTRAL_PREFIX.length()).strip()
                : content;
        text = unfenced(text);
        if (!text.startsWith("{") && !text.startsWith("[")) {
            return Optional.empty();
        }
        JsonNode json = json(text);
        if (json == null) {
            return Optional.empty();
        }
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode item : json.isArray() ? json : List.of(json)) {
            ToolCall call = call(item);
            if (call == null) {
                return Optional.empty();
            }
            calls.add(call);
        }
        return calls.isEmpty() ? Optional.empty() : Optional.of(new Found(calls, ""));
    }

    /**
     * A JSON call: {@code name} and {@code arguments} (or {@code parameters}), also in OpenAI's own shape
     * {@code {"function": {"name", "arguments"}}}; arguments as an object or as JSON text. Null when it is not a
     * call to an offered tool.
     */
    private ToolCall call(JsonNode json) {
        if (json == null || !json.isObject()) {
            return null;
        }
        JsonNode node = json.path("function").isObject() ? json.get("function") : json;
        String name = node.path("name").asText("");
        if (!tools.containsKey(name)) {
            return null;
        }
        JsonNode arguments = node.has("arguments") ? node.get("arguments") : node.get("parameters");
        String argumentsJson;
        if (arguments == null || arguments.isNull()) {
            argumentsJson = "{}";
        } else if (arguments.isObject()) {
            argumentsJson = arguments.toString();
        } else if (arguments.isTextual() && json(arguments.asText()) instanceof ObjectNode parsed) {
            argumentsJson = parsed.toString();
        } else {
            return null;
        }
        String id = json.path("id").isTextual() && !json.get("id").asText().isBlank() ? json.get("id").asText()
                : newId();
        return new ToolCall(id, name, argumentsJson);
    }

    /**
     * A parameter written as text: a string unless the tool's schema says it is a number, a boolean, an object or
     * an array, and the text reads as one (Qwen3-Coder's template writes every value bare).
     */
    private static JsonNode value(ToolDefinition tool, String parameter, String text) {
        JsonNode schema = json(tool.parametersJsonSchema());
        String type = schema == null ? "" : schema.path("properties").path(parameter).path("type").asText("");
        if (!type.isEmpty() && !type.equals("string")) {
            JsonNode parsed = json(text.strip());
            if (parsed != null && !parsed.isTextual()) {
                return parsed;
            }
        }
        return JSON.getNodeFactory().textNode(text);
    }

    private static String unfenced(String text) {
        Matcher fence = FENCE.matcher(text.strip());
        return fence.matches() ? fence.group(1) : text.strip();
    }

    private static JsonNode json(String text) {
        try {
            return text == null || text.isBlank() ? null : JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static String newId() {
        return "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }
}
