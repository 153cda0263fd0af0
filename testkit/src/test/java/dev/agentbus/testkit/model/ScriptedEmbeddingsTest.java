package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScriptedEmbeddingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScriptedModelServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        server = ScriptedModelServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static double cosine(String a, String b) {
        float[] x = HashedEmbedding.embed(a);
        float[] y = HashedEmbedding.embed(b);
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
        }
        return dot;
    }

    private static HttpResponse<String> post(String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/embeddings"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void the_same_text_always_gets_the_same_unit_vector() {
        float[] a = HashedEmbedding.embed("Deploy the billing service");
        float[] b = HashedEmbedding.embed("deploy THE billing service!");

        assertThat(a).hasSize(HashedEmbedding.DIMENSIONS).containsExactly(b);
        assertThat(cosine("Deploy the billing service", "Deploy the billing service")).isCloseTo(1, within(1e-5));
    }

    @Test
    void texts_sharing_words_or_word_forms_are_nearer_than_unrelated_ones() {
        double related = cosine("the deployment failed on kubernetes", "deploying to kubernetes keeps failing");
        double unrelated = cosine("the deployment failed on kubernetes", "a risotto recipe with mushrooms");

        assertThat(related).isGreaterThan(0.4);
        assertThat(unrelated).isLessThan(0.2);
    }

    @Test
    void a_text_of_stop_words_only_is_the_zero_vector() {
        assertThat(HashedEmbedding.embed("and the of")).containsOnly(0f);
    }

    @Test
    void the_server_answers_one_vector_per_input_in_openais_shape_and_counts_them() throws Exception {
        int before = server.embeddedTextCount();

        HttpResponse<String> r = post("{\"model\":\"nomic-embed\",\"input\":[\"alpha beta\",\"gamma\"]}");

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.get("model").asText()).isEqualTo("nomic-embed");
        assertThat(body.get("data")).hasSize(2);
        assertThat(body.get("data").get(1).get("index").asInt()).isEqualTo(1);
        assertThat(body.get("data").get(1).get("embedding")).hasSize(HashedEmbedding.DIMENSIONS);
        assertThat(body.get("data").get(1).get("embedding").get(0).floatValue())
                .isEqualTo(HashedEmbedding.embed("gamma")[0]);
        assertThat(server.embeddedTextCount() - before).isEqualTo(2);
    }

    @Test
    void a_single_string_input_is_one_vector_and_a_missing_input_is_a_400() throws Exception {
        assertThat(JSON.readTree(post("{\"model\":\"m\",\"input\":\"alpha\"}").body()).get("data")).hasSize(1);

        HttpResponse<String> bad = post("{\"model\":\"m\"}");

        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).at("/error/message").asText()).contains("input is required");
    }
}
