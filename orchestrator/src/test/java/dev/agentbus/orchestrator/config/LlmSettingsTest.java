package dev.agentbus.orchestrator.config;

import dev.agentbus.orchestrator.running.OrchestratorRuntime;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

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

    @Test
    void without_settings_the_orchestrator_streams_from_lm_studios_default_address() {
        assertThat(bind(Map.of())).isEqualTo(new LlmSettings("http://localhost:1234/v1", "", "", 0.2, 4096, 300, 2,
                true));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("orchestrator", Map.of(
                "LLM_URL", "http://localhost:11434/v1/chat/completions",
                "LLM_MODEL", "qwen2.5-coder:7b",
                "LLM_API_KEY", "sk-test",
                "LLM_TEMPERATURE", "0.7",
                "LLM_MAX_TOKENS", "0",
                "LLM_TIMEOUT_SECONDS", "60",
                "LLM_RETRIES", "0",
                "LLM_STREAM", "false"), OrchestratorRuntime.class)) {
            assertThat(ctx.getBean(LlmSettings.class).modelSettings()).isEqualTo(new dev.agentbus.modelclient
                    .ModelSettings("http://localhost:11434/v1", "qwen2.5-coder:7b", "sk-test", 0.7, 0,
                    java.time.Duration.ofSeconds(60), 0, false));
        }
    }

    @Test
    void a_url_that_is_not_http_stops_the_orchestrator_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("llm.url", "localhost:1234/v1"))))
                .isEqualTo("llm.url must be an http:// or https:// URL such as http://localhost:1234/v1, "
                        + "not 'localhost:1234/v1'");
    }

    @Test
    void a_time_out_below_one_second_stops_the_orchestrator() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("llm.timeout-seconds", "0"))))
                .isEqualTo("llm.timeout-seconds must be at least 1, not 0");
    }

    @Test
    void a_stream_setting_that_is_not_a_yes_or_no_stops_the_orchestrator() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("llm.stream", "1"))))
                .isEqualTo("llm.stream must be true or false, not '1'");
    }

    @Test
    void the_api_key_is_never_printed() {
        assertThat(new LlmSettings("http://localhost:1234/v1", "", "sk-secret", 0.2, 4096, 300, 2, true).toString())
                .doesNotContain("sk-secret").contains("apiKey=<set>");
    }

    private static LlmSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("orchestrator", properties, OrchestratorRuntime.class)) {
            return ctx.getBean(LlmSettings.class);
        }
    }
}
