package dev.agentbus.gateway.readmodels.searching;

import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SearchModeTest {
    @Test
    void without_a_mode_search_is_hybrid_when_embeddings_are_configured_and_text_when_not() {
        assertThat(SearchMode.of(null, true)).isEqualTo(SearchMode.HYBRID);
        assertThat(SearchMode.of(" ", false)).isEqualTo(SearchMode.TEXT);
    }

    @Test
    void modes_are_read_in_any_case() {
        assertThat(SearchMode.of("Semantic", true)).isEqualTo(SearchMode.SEMANTIC);
        assertThat(SearchMode.of("HYBRID", true)).isEqualTo(SearchMode.HYBRID);
        assertThat(SearchMode.of("text", false)).isEqualTo(SearchMode.TEXT);
    }

    @Test
    void an_unknown_mode_is_a_bad_request_naming_the_modes() {
        assertThatThrownBy(() -> SearchMode.of("fuzzy", true)).isInstanceOf(ApiException.class)
                .hasMessage("mode must be text, semantic or hybrid, not 'fuzzy'")
                .extracting(e -> ((ApiException) e).status()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @Test
    void a_mode_that_needs_embeddings_is_a_bad_request_when_there_is_no_embedding_model() {
        for (String mode : new String[] {"semantic", "hybrid"}) {
            assertThatThrownBy(() -> SearchMode.of(mode, false)).isInstanceOf(ApiException.class)
                    .hasMessageContaining("mode=" + mode + " needs an embedding model")
                    .hasMessageContaining("agentbus.search.embedding-model")
                    .extracting(e -> ((ApiException) e).status()).isEqualTo(HttpStatus.BAD_REQUEST);
        }
    }
}
