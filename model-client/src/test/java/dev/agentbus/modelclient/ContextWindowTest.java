package dev.agentbus.modelclient;

import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.WindowStyle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The context window is read from wherever each kind of server tells it, and from nowhere else. */
class ContextWindowTest {

    private static ModelClient client(ScriptedModelServer server, String model) {
        return new ModelClient(new ModelSettings(server.baseUrl(), model, "", 0.2, 256, Duration.ofSeconds(5), 0,
                true));
    }

    @ParameterizedTest
    @CsvSource({
            "VLLM, vLLM /v1/models",
            "LM_STUDIO, LM Studio /api/v0/models",
            "LLAMA_CPP, llama.cpp /props",
            "OLLAMA, Ollama /api/show"})
    void each_kind_of_server_is_asked_where_it_tells_the_window(WindowStyle style, String source) {
        try (ScriptedModelServer server = ScriptedModelServer.start("local-model").tellContextWindow(style, 8192);
             ModelClient client = client(server, "local-model")) {
            // LM Studio's and Ollama's servers also tell a larger maximum: the window the model runs with wins.
            assertThat(client.contextWindow()).contains(new ContextWindow(8192, source));
        }
    }

    @Test
    void a_server_that_tells_no_window_gives_none_and_is_not_asked_again_at_once() {
        try (ScriptedModelServer server = ScriptedModelServer.start("local-model");
             ModelClient client = client(server, "")) {
            assertThat(client.contextWindow()).isEmpty();
            int asked = server.modelListRequestCount();

            assertThat(client.contextWindow()).isEmpty();
            assertThat(server.modelListRequestCount()).isEqualTo(asked);
        }
    }

    @Test
    void a_window_once_told_is_remembered() {
        try (ScriptedModelServer server = ScriptedModelServer.start("local-model")
                .tellContextWindow(WindowStyle.VLLM, 4096); ModelClient client = client(server, "local-model")) {
            client.contextWindow();
            int asked = server.modelListRequestCount();

            assertThat(client.contextWindow()).contains(new ContextWindow(4096, "vLLM /v1/models"));
            assertThat(server.modelListRequestCount()).isEqualTo(asked);
        }
    }
}
