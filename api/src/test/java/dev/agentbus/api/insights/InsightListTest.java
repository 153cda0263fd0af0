package dev.agentbus.api.insights;

import dev.agentbus.api.ApiJson;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InsightListTest {
    private static final Instant T = Instant.parse("2026-11-20T08:00:00Z");

    @Test
    void the_list_is_best_first_with_score_votes_flags_and_sources_as_docs_memory_md_shows() {
        Insight tabs = new Insight("a", InsightCategory.PREFERENCE, "prefers tabs over spaces", 0.5,
                List.of(new InsightSource("s1", List.of(2L, 5L, 6L))), T, T, 3, 1, 0, false, false, true,
                Insight.Origin.DISTILLED);
        Insight name = new Insight("b", InsightCategory.IDENTITY, "is called Ada", 1.0, List.of(), T, T, 0, 0, 0,
                false, true, false, Insight.Origin.PERSON);
        InsightList list = InsightList.of(new InsightSet("u", 4, List.of(tabs, name), Map.of(), T, "c"), T);

        String wire = ApiJson.write(list);

        // Used in three prompts and voted up once: 0.6 × (1 + ln 4) beats the unused person-written 1.0.
        assertThat(list.insights()).extracting(InsightView::id).containsExactly("a", "b");
        assertThat(wire).contains("\"protected\":true", "\"origin\":\"person\"", "\"upVotes\":1", "\"uses\":3",
                "\"sources\":[{\"sessionId\":\"s1\",\"seqs\":[2,5,6]}]");
    }
}
