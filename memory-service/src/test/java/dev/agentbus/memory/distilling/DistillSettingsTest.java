package dev.agentbus.memory.distilling;

import dev.agentbus.modelclient.ModelSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DistillSettingsTest {
    private static final DistillSettings DEFAULTS = new DistillSettings(false, "", 1024, 16000, 4);

    @Test
    void the_extraction_uses_the_agents_server_and_model_unless_a_model_of_its_own_is_named() {
        ModelServerSettings server = new ModelServerSettings("http://localhost:1234/v1/chat/completions/", "qwen",
                "sk-1", 60, 1);

        ModelSettings agents = server.forExtraction(DEFAULTS);
        assertThat(agents.baseUrl()).isEqualTo("http://localhost:1234/v1");
        assertThat(agents.model()).isEqualTo("qwen");
        assertThat(agents.apiKey()).isEqualTo("sk-1");
        assertThat(agents.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(agents.stream()).as("nobody watches the answer arrive").isFalse();
        assertThat(agents.temperature()).isZero();
        assertThat(agents.maxTokens()).isEqualTo(1024);

        assertThat(server.forExtraction(new DistillSettings(true, " small-model ", 256, 16000, 4)).model())
                .isEqualTo("small-model");
    }

    @Test
    void settings_out_of_range_stop_the_service_with_the_property_named() {
        assertThatThrownBy(() -> new DistillSettings(true, "", 0, 16000, 4))
                .hasMessage("agentbus.memory.distill.max-tokens must be at least 1, not 0");
        assertThatThrownBy(() -> new DistillSettings(true, "", 1024, 10, 4))
                .hasMessage("agentbus.memory.distill.max-turn-chars must be at least 500, not 10");
        assertThatThrownBy(() -> new ModelServerSettings("localhost:1234", "", "", 300, 2))
                .hasMessageStartingWith("llm.url must be an http:// or https:// URL");
        assertThatThrownBy(() -> new ModelServerSettings("http://localhost:1234/v1", "", "", 0, 2))
                .hasMessage("llm.timeout-seconds must be at least 1, not 0");
    }

    @Test
    void the_key_is_never_printed() {
        assertThat(new ModelServerSettings("http://localhost:1234/v1", "", "sk-secret", 300, 2).toString())
                .doesNotContain("sk-secret").contains("<set>");
    }

    @Test
    void a_long_turn_keeps_its_end() {
        CompletedTurn turn = new CompletedTurn("s1", "alice", 9, java.time.Instant.EPOCH, java.util.List.of(
                new CompletedTurn.Line(CompletedTurn.Speaker.USER, 2, "x".repeat(2000) + " the start"),
                new CompletedTurn.Line(CompletedTurn.Speaker.ASSISTANT, 8, "the final answer")));

        var messages = ExtractionPrompt.messages(turn, 600);

        String transcript = ((dev.agentbus.modelclient.ChatMessage.User) messages.get(1)).content();
        assertThat(transcript).hasSize(601).startsWith("…").endsWith("AGENT: the final answer");
        assertThat(((dev.agentbus.modelclient.ChatMessage.System) messages.get(0)).content())
                .contains("{\"insights\": [{\"category\": \"preference\", \"text\": \"prefers tabs over spaces\", "
                        + "\"confidence\": 0.8}]}");
    }
}
