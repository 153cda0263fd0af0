package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand.Extracted;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExtractionParserTest {
    @Test
    void a_valid_answer_gives_every_insight_with_its_category_text_and_confidence() {
        Extraction e = ExtractionParser.parse("""
                {"insights": [{"category": "preference", "text": "prefers tabs over spaces", "confidence": 0.8},
                              {"category": "identity", "text": "is called Ada", "confidence": 1}]}""");

        assertThat(e).isEqualTo(new Extraction.Parsed(java.util.List.of(
                new Extracted(InsightCategory.PREFERENCE, "prefers tabs over spaces", 0.8),
                new Extracted(InsightCategory.IDENTITY, "is called Ada", 1.0)), java.util.List.of()));
    }

    @Test
    void an_empty_list_is_a_valid_answer_with_nothing_learned() {
        assertThat(ExtractionParser.parse("{\"insights\": []}"))
                .isEqualTo(new Extraction.Parsed(java.util.List.of(), java.util.List.of()));
    }

    @Test
    void json_in_a_markdown_fence_or_after_a_sentence_is_read() {
        Extraction e = ExtractionParser.parse("""
                Here you go:
                ```json
                {"insights": [{"category": "skill", "text": "knows Rust", "confidence": 0.6}]}
                ```""");

        assertThat(((Extraction.Parsed) e).insights()).extracting(Extracted::text).containsExactly("knows Rust");
    }

    @Test
    void session_detail_is_accepted_with_a_space_a_dash_or_an_underscore() {
        for (String name : new String[]{"session detail", "session-detail", "Session_Detail"}) {
            Extraction e = ExtractionParser.parse("{\"insights\": [{\"category\": \"" + name
                    + "\", \"text\": \"is debugging a flaky test\", \"confidence\": 0.5}]}");
            assertThat(((Extraction.Parsed) e).insights()).extracting(Extracted::category)
                    .containsExactly(InsightCategory.SESSION_DETAIL);
        }
    }

    @Test
    void text_that_is_not_json_is_malformed() {
        assertThat(ExtractionParser.parse("The user likes tabs.")).isInstanceOf(Extraction.Malformed.class);
        assertThat(ExtractionParser.parse("{\"insights\": [")).isInstanceOf(Extraction.Malformed.class);
        assertThat(ExtractionParser.parse("")).isInstanceOf(Extraction.Malformed.class);
        assertThat(ExtractionParser.parse(null)).isInstanceOf(Extraction.Malformed.class);
    }

    @Test
    void json_without_an_insights_array_is_malformed() {
        assertThat(ExtractionParser.parse("{\"facts\": []}")).isInstanceOf(Extraction.Malformed.class);
        assertThat(ExtractionParser.parse("{\"insights\": \"none\"}")).isInstanceOf(Extraction.Malformed.class);
    }

    @Test
    void an_item_of_an_unknown_category_is_skipped_and_the_others_are_kept() {
        Extraction e = ExtractionParser.parse("""
                {"insights": [{"category": "hobby", "text": "plays chess", "confidence": 0.7},
                              {"text": "no category", "confidence": 0.7},
                              {"category": "opinion", "text": "thinks YAML is error-prone", "confidence": 0.7}]}""");

        Extraction.Parsed parsed = (Extraction.Parsed) e;
        assertThat(parsed.insights()).extracting(Extracted::category).containsExactly(InsightCategory.OPINION);
        assertThat(parsed.skipped()).hasSize(2).allMatch(why -> why.startsWith("unknown category"));
    }

    @Test
    void an_item_whose_confidence_is_outside_0_to_1_or_not_a_number_is_skipped() {
        Extraction e = ExtractionParser.parse("""
                {"insights": [{"category": "skill", "text": "knows Go", "confidence": 80},
                              {"category": "skill", "text": "knows C", "confidence": -0.1},
                              {"category": "skill", "text": "knows Java", "confidence": "high"},
                              {"category": "skill", "text": "knows SQL"},
                              {"category": "skill", "text": "knows Kafka", "confidence": 0}]}""");

        Extraction.Parsed parsed = (Extraction.Parsed) e;
        assertThat(parsed.insights()).extracting(Extracted::text).containsExactly("knows Kafka");
        assertThat(parsed.skipped()).hasSize(4);
    }

    @Test
    void an_item_without_text_or_with_too_long_a_text_is_skipped() {
        Extraction e = ExtractionParser.parse("{\"insights\": [{\"category\": \"skill\", \"text\": \"  \", "
                + "\"confidence\": 0.5}, {\"category\": \"skill\", \"text\": \"" + "x".repeat(501)
                + "\", \"confidence\": 0.5}, \"just a string\"]}");

        assertThat(((Extraction.Parsed) e).insights()).isEmpty();
        assertThat(((Extraction.Parsed) e).skipped()).hasSize(3);
    }
}
