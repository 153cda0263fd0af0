package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.gateway.readmodels.searching.ranking.Vectors;
import dev.agentbus.testkit.model.HashedEmbedding;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The embeddings client against the scripted model server's {@code /v1/embeddings} (real HTTP, no broker). */
class EmbeddingClientTest {
    private static ScriptedModelServer server;

    @BeforeAll
    static void start() {
        server = ScriptedModelServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void one_normalised_vector_per_text_in_the_texts_order() throws Exception {
        try (EmbeddingClient client = new EmbeddingClient(server.baseUrl(), "", "m", Duration.ofSeconds(10))) {
            List<float[]> vectors = client.embed(List.of("billing service", "risotto recipe"));

            assertThat(vectors).hasSize(2);
            assertThat(vectors.get(1)).containsExactly(HashedEmbedding.embed("risotto recipe"));
            assertThat(Vectors.dot(vectors.getFirst(), vectors.getFirst())).isCloseTo(1f, within(1e-5f));
            assertThat(client.embed(List.of())).isEmpty();
        }
    }

    @Test
    void a_refused_input_is_a_rejection_naming_the_status_and_the_model() {
        try (EmbeddingClient client = new EmbeddingClient(server.baseUrl().replace("/v1", "/v0"), "", "nomic",
                Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> client.embed(List.of("x")))
                    .isInstanceOf(EmbeddingClient.EmbeddingException.class)
                    .hasMessageContaining("model 'nomic'").hasMessageContaining("HTTP 404")
                    .matches(e -> ((EmbeddingClient.EmbeddingException) e).rejected());
        }
    }

    @Test
    void a_server_that_does_not_answer_is_a_failure_to_retry_not_a_rejection() {
        ScriptedModelServer gone = ScriptedModelServer.start();
        String url = gone.baseUrl();
        gone.close();
        try (EmbeddingClient client = new EmbeddingClient(url, "", "m", Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> client.embed(List.of("x")))
                    .isInstanceOf(EmbeddingClient.EmbeddingException.class)
                    .hasMessageContaining("did not answer POST /embeddings")
                    .matches(e -> !((EmbeddingClient.EmbeddingException) e).rejected());
        }
    }
}
