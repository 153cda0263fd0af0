package dev.agentbus.cli.commands;

import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentbus search}. */
class SearchCommandTest extends OnFakeGateway {

    @Test
    void search_sends_the_words_and_mode_and_prints_each_hit_with_where_to_find_it() {
        gateway.json("GET", "/api/v1/search", 200, "{\"query\":\"kubernetes rollout\",\"mode\":\"semantic\","
                + "\"results\":[{\"sessionId\":\"s1\",\"title\":\"release night\",\"seq\":2,\"role\":\"user\","
                + "\"time\":\"2026-11-25T21:04:05Z\",\"snippet\":\"The kubernetes deployment\\nfailed\","
                + "\"rank\":0.61}]}");

        assertThat(cli.run("search", "--mode", "semantic", "kubernetes", "rollout")).isZero();

        assertThat(gateway.requests("GET", "/api/v1/search").getFirst().query())
                .contains("q=kubernetes+rollout").contains("mode=semantic").contains("limit=20");
        assertThat(cli.out()).contains("1 found (semantic):", "release night", "s1 #2 user",
                "  The kubernetes deployment failed");
    }

    @Test
    void without_a_mode_the_gateway_chooses() {
        gateway.json("GET", "/api/v1/search", 200, "{\"query\":\"milk\",\"mode\":\"text\",\"results\":[]}");

        assertThat(cli.run("search", "milk")).isZero();

        assertThat(gateway.requests("GET", "/api/v1/search").getFirst().query()).doesNotContain("mode=");
        assertThat(cli.out()).contains("nothing found (text)");
    }

    @Test
    void a_mode_the_gateway_cannot_serve_is_an_error_with_its_message() {
        gateway.json("GET", "/api/v1/search", 400, "{\"error\":\"bad_request\",\"message\":\"mode=semantic needs "
                + "an embedding model, and this installation has none (agentbus.search.embedding-model); mode=text "
                + "searches by words\"}");

        assertThat(cli.run("search", "--mode", "semantic", "milk")).isEqualTo(1);

        assertThat(cli.err()).contains("mode=semantic needs an embedding model");
    }
}
