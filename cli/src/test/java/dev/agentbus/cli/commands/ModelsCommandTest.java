package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentbus models} and {@code agentbus run --model}. */
class ModelsCommandTest extends OnFakeGateway {

    @Test
    void models_lists_the_servers_models_with_their_context_window() {
        gateway.json("GET", "/api/v1/models", 200, "{\"server\":\"team\",\"models\":[{\"id\":\"qwen3-8b\","
                + "\"contextWindow\":32768},{\"id\":\"llama-3.2-3b\"}]}");

        assertThat(cli.run("models")).isZero();

        assertThat(cli.out()).contains("the team's model server:", "qwen3-8b  (32768 tokens of context)")
                .containsPattern("(?m)^llama-3.2-3b$");
    }

    @Test
    void models_shows_what_each_model_can_do_where_it_is_known() {
        gateway.json("GET", "/api/v1/models", 200, "{\"server\":\"own\",\"models\":[{\"id\":\"qwen2.5-vl-7b\","
                + "\"contextWindow\":8192,\"vision\":true,\"tools\":true,\"capabilitiesFrom\":\"LM Studio /api/v0/models\"},"
                + "{\"id\":\"deepseek-r1\",\"vision\":false,\"tools\":false,\"thinking\":true},{\"id\":\"plain\"}]}");

        assertThat(cli.run("models")).isZero();

        assertThat(cli.out()).contains("qwen2.5-vl-7b  (8192 tokens of context, vision, tools)",
                "deepseek-r1  (no vision, no tools, thinking)").containsPattern("(?m)^plain$");
    }

    @Test
    void a_model_server_that_does_not_answer_is_an_error_with_the_gateways_words() {
        gateway.json("GET", "/api/v1/models", 502, "{\"error\":\"bad_gateway\",\"message\":\"the team's model "
                + "server did not answer GET /models: connection refused\"}");

        assertThat(cli.run("models")).isEqualTo(1);

        assertThat(cli.err()).contains("the team's model server did not answer GET /models: connection refused");
    }

    @Test
    void run_with_a_model_creates_the_session_with_it() throws Exception {
        gateway.json("POST", "/api/v1/sessions", 201, "{\"id\":\"s1\"}")
                .json("POST", "/api/v1/sessions/s1/messages", 202, "{\"inputId\":\"in-1\"}")
                .sse("/api/v1/sessions/s1/events", SseScript.thenHold(Events.sse(
                        Events.turn(TurnOutcome.COMPLETED, "done", null), 1, 10)));

        assertThat(cli.run("run", "--model", "qwen3-8b", "do it")).isZero();

        String body = gateway.requests("POST", "/api/v1/sessions").getFirst().body();
        assertThat(Json.mapper().readTree(body).get("model").asText()).isEqualTo("qwen3-8b");
    }

    @Test
    void run_with_a_model_and_an_existing_session_is_a_usage_error() {
        assertThat(cli.run("run", "--model", "qwen3-8b", "--session", "s1", "do it")).isEqualTo(64);
        assertThat(cli.err()).contains("--model names the model of a new session");
        assertThat(gateway.requests()).isEmpty();
    }
}
