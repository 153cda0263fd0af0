package dev.agentbus.memory.distilling;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the model's answer to the extraction prompt: {@code {"insights": [{"category": …, "text": …,
 * "confidence": …}]}}. Pure. Models wrap JSON in a Markdown fence or a sentence now and then, so the outermost
 * {@code {…}} is read; anything else that is not that object is {@link Extraction.Malformed}. One bad item does not
 * spoil the others. A confidence outside 0..1 is refused rather than guessed at ({@code 80} may mean 0.8 or
 * nonsense).
 */
final class ExtractionParser {
    static final int MAX_TEXT_CHARS = dev.agentbus.events.insights.Insight.MAX_TEXT_CHARS;
    static final int MAX_INSIGHTS_PER_TURN = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExtractionParser() {
    }

    static Extraction parse(String answer) {
        if (answer == null || answer.isBlank()) {
            return new Extraction.Malformed("empty answer");
        }
        int start = answer.indexOf('{');
        int end = answer.lastIndexOf('}');
        if (start < 0 || end < start) {
            return new Extraction.Malformed("no JSON object in the answer");
        }
        JsonNode root;
        try {
            root = JSON.readTree(answer.substring(start, end + 1));
        } catch (JsonProcessingException e) {
            return new Extraction.Malformed("not JSON: " + e.getOriginalMessage());
        }
        JsonNode items = root.get("insights");
        if (items == null || !items.isArray()) {
            return new Extraction.Malformed("no \"insights\" array");
        }
        List<InsightCommand.Extracted> insights = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JsonNode item : items) {
            if (insights.size() == MAX_INSIGHTS_PER_TURN) {
                skipped.add("more than " + MAX_INSIGHTS_PER_TURN + " insights: the rest left out");
                break;
            }
            String why = check(item);
            if (why != null) {
                skipped.add(why);
            } else {
                insights.add(new InsightCommand.Extracted(InsightCategory.parse(item.get("category").asText()).orElseThrow(),
                        item.get("text").asText().strip(), item.get("confidence").asDouble()));
            }
        }
        return new Extraction.Parsed(insights, skipped);
    }

    /** Why the item cannot be used, or null. */
    private static String check(JsonNode item) {
        if (!item.isObject()) {
            return "not an object: " + item;
        }
        JsonNode category = item.get("category");
        Optional<InsightCategory> known = category != null && category.isTextual()
                ? InsightCategory.parse(category.asText()) : Optional.empty();
        if (known.isEmpty()) {
            return "unknown category " + category;
        }
        JsonNode text = item.get("text");
        if (text == null || !text.isTextual() || text.asText().isBlank()) {
            return "no text";
        }
        if (text.asText().strip().length() > MAX_TEXT_CHARS) {
            return "text longer than " + MAX_TEXT_CHARS + " characters";
        }
        JsonNode confidence = item.get("confidence");
        if (confidence == null || !confidence.isNumber()) {
            return "no numeric confidence";
        }
        double c = confidence.asDouble();
        if (!(c >= 0 && c <= 1)) {
            return "confidence " + confidence + " outside 0..1";
        }
        return null;
    }
}
