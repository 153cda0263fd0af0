package dev.agentbus.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SearchResultsTest {
    private static final SearchResults ANSWER = new SearchResults("kubernetes rollout", "hybrid", List.of(
            new SearchResults.Hit("0b6c1e2a-5f0e-4a61-9d1e-2f4c8a7b9c10", "release night", 2, "user",
                    Instant.parse("2026-11-25T21:04:05Z"), "The **kubernetes** deployment failed twice tonight",
                    0.032786885245901641),
            new SearchResults.Hit("0b6c1e2a-5f0e-4a61-9d1e-2f4c8a7b9c10", "release night", 3, "assistant",
                    Instant.parse("2026-11-25T21:04:09Z"), "Roll back the deployment, then read the pod logs.",
                    0.016129032258064516)));

    @Test
    void the_search_answer_is_sent_as_docs_api_md_shows_it() throws Exception {
        assertThat(GoldenAnswers.pretty(ApiJson.write(ANSWER))).isEqualTo(GoldenAnswers.load("search-results.json"));
    }

    @Test
    void a_client_reads_the_answer_back() throws Exception {
        assertThat(ApiJson.read(ApiJson.write(ANSWER), SearchResults.class)).isEqualTo(ANSWER);
    }
}
