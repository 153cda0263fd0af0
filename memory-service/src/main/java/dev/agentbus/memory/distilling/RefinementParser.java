package dev.agentbus.memory.distilling;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks the model's answer to a refinement prompt, all or nothing: the answer is taken only if every merge names
 * insights that were offered (not protected, not disabled), none twice, with a known category, a text of 1 to 500
 * characters and a confidence between 0 and 1. One bad merge refuses the whole answer, since merges of one answer
 * were meant together. Pure.
 */
final class RefinementParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RefinementParser() {
    }

    /** The merges, or why the answer was refused. */
    sealed interface Result {
        record Merges(List<InsightCommand.Merge> merges) implements Result {
        }

        record Refused(String reason) implements Result {
        }
    }

    static Result parse(String answer, Set<String> offered) {
        if (answer == null || answer.indexOf('{') < 0 || answer.lastIndexOf('}') < answer.indexOf('{')) {
            return new Result.Refused("no JSON object in the answer");
        }
        JsonNode root;
        try {
            root = JSON.readTree(answer.substring(answer.indexOf('{'), answer.lastIndexOf('}') + 1));
        } catch (JsonProcessingException e) {
            return new Result.Refused("not JSON: " + e.getOriginalMessage());
        }
        JsonNode merges = root.get("merges");
        if (merges == null || !merges.isArray()) {
            return new Result.Refused("no \"merges\" array");
        }
        Set<String> named = new HashSet<>();
        List<InsightCommand.Merge> out = new ArrayList<>();
        for (JsonNode m : merges) {
            JsonNode replaces = m.get("replaces");
            if (replaces == null || !replaces.isArray() || replaces.isEmpty()) {
                return new Result.Refused("a merge without \"replaces\"");
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode id : replaces) {
                if (!id.isTextual() || !offered.contains(id.asText())) {
                    return new Result.Refused("a merge names " + id + ", which was not offered");
                }
                if (!named.add(id.asText())) {
                    return new Result.Refused(id + " is named by two merges");
                }
                ids.add(id.asText());
            }
            Optional<InsightCategory> category = m.path("category").isTextual()
                    ? InsightCategory.parse(m.get("category").asText()) : Optional.empty();
            if (category.isEmpty()) {
                return new Result.Refused("unknown category " + m.get("category"));
            }
            String text = m.path("text").isTextual() ? m.get("text").asText().strip() : "";
            if (text.isEmpty() || text.length() > Insight.MAX_TEXT_CHARS) {
                return new Result.Refused("a merged text must have 1 to " + Insight.MAX_TEXT_CHARS + " characters");
            }
            JsonNode c = m.get("confidence");
            if (c == null || !c.isNumber() || !(c.asDouble() >= 0 && c.asDouble() <= 1)) {
                return new Result.Refused("confidence " + c + " is not a number between 0 and 1");
            }
            out.add(new InsightCommand.Merge(ids, category.get(), text, c.asDouble()));
        }
        return new Result.Merges(out);
    }
}
