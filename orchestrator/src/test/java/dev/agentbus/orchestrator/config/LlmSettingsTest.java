package dev.agentbus.orchestrator.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LlmSettingsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "http://localhost:1234/v1/chat/completions,   http://localhost:1234/v1",
            "http://localhost:1234/v1/chat/completions/,  http://localhost:1234/v1",
            "https://api.example.com/chat/completions,    https://api.example.com",
    })
    void an_lmagent_style_endpoint_url_becomes_the_api_root(String url, String expected) {
        assertThat(LlmSettings.normaliseUrl(url)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "http://localhost:1234/v1/,    http://localhost:1234/v1",
            "http://localhost:11434/v1///, http://localhost:11434/v1",
    })
    void trailing_slashes_are_dropped(String url, String expected) {
        assertThat(LlmSettings.normaliseUrl(url)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
            "http://localhost:1234/v1",
            "http://localhost:11434/v1",
            "https://api.example.com/openai/v1",
            "http://localhost:1234/v1/chat",
            "http://localhost:1234/v1/completions",
            "http://localhost:1234/chat/completions/v1",
    })
    void an_api_root_is_kept_as_it_is(String url) {
        assertThat(LlmSettings.normaliseUrl(url)).isEqualTo(url);
    }

    @Test
    void surrounding_whitespace_from_an_environment_variable_is_ignored() {
        assertThat(LlmSettings.normaliseUrl("  http://localhost:1234/v1/chat/completions \n"))
                .isEqualTo("http://localhost:1234/v1");
    }

    @Test
    void the_model_settings_get_the_normalised_url() {
        LlmSettings settings = new LlmSettings("http://localhost:1234/v1/chat/completions", "qwen", "", 0.2,
                4096, 300, 2, true);

        assertThat(settings.modelSettings().baseUrl()).isEqualTo("http://localhost:1234/v1");
        assertThat(settings.modelSettings().model()).isEqualTo("qwen");
    }
}
