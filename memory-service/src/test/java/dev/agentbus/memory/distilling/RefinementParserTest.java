package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RefinementParserTest {
    private static final Set<String> OFFERED = Set.of("a", "b", "c");

    @Test
    void given_merges_of_offered_insights_then_they_are_taken_even_inside_a_markdown_fence() {
        var result = RefinementParser.parse("""
                ```json
                {"merges": [{"replaces": ["a", "b"], "category": "Preference", "text": " prefers tabs ",
                             "confidence": 0.8}]}
                ```""", OFFERED);

        assertThat(result).isEqualTo(new RefinementParser.Result.Merges(List.of(
                new InsightCommand.Merge(List.of("a", "b"), InsightCategory.PREFERENCE, "prefers tabs", 0.8))));
    }

    @Test
    void given_nothing_to_merge_then_an_empty_list_is_a_valid_answer() {
        assertThat(RefinementParser.parse("{\"merges\": []}", OFFERED))
                .isEqualTo(new RefinementParser.Result.Merges(List.of()));
    }

    @Test
    void one_bad_merge_refuses_the_whole_answer() {
        String goodThenUnknownId = "{\"merges\": [{\"replaces\": [\"a\"], \"category\": \"skill\", \"text\": \"x\","
                + " \"confidence\": 0.5}, {\"replaces\": [\"protected-one\"], \"category\": \"skill\", \"text\": \"y\","
                + " \"confidence\": 0.5}]}";

        assertThat(RefinementParser.parse(goodThenUnknownId, OFFERED))
                .isInstanceOfSatisfying(RefinementParser.Result.Refused.class,
                        r -> assertThat(r.reason()).contains("was not offered"));
    }

    @Test
    void an_insight_in_two_merges_a_bad_category_text_or_confidence_and_non_json_are_refused() {
        assertThat(RefinementParser.parse("{\"merges\": [{\"replaces\": [\"a\", \"b\"], \"category\": \"skill\","
                + " \"text\": \"x\", \"confidence\": 0.5}, {\"replaces\": [\"b\", \"c\"], \"category\": \"skill\","
                + " \"text\": \"y\", \"confidence\": 0.5}]}", OFFERED))
                .isInstanceOf(RefinementParser.Result.Refused.class);
        assertThat(RefinementParser.parse("{\"merges\": [{\"replaces\": [\"a\"], \"category\": \"hobby\","
                + " \"text\": \"x\", \"confidence\": 0.5}]}", OFFERED)).isInstanceOf(RefinementParser.Result.Refused.class);
        assertThat(RefinementParser.parse("{\"merges\": [{\"replaces\": [\"a\"], \"category\": \"skill\","
                + " \"text\": \" \", \"confidence\": 0.5}]}", OFFERED)).isInstanceOf(RefinementParser.Result.Refused.class);
        assertThat(RefinementParser.parse("{\"merges\": [{\"replaces\": [\"a\"], \"category\": \"skill\","
                + " \"text\": \"x\", \"confidence\": 80}]}", OFFERED)).isInstanceOf(RefinementParser.Result.Refused.class);
        assertThat(RefinementParser.parse("I merged nothing.", OFFERED)).isInstanceOf(RefinementParser.Result.Refused.class);
    }
}
