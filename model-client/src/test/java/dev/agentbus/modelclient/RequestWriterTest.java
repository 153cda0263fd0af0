package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sampling fields of a request: the client's settings, and a call's own choice over them. */
class RequestWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ModelSettings SETTINGS = ModelSettings.of("http://localhost:1234/v1", "team-model")
            .withTemperature(0.2).withMaxTokens(4096);
    private static final List<ChatMessage> HELLO = List.of(new ChatMessage.User("hello"));

    private static JsonNode write(ModelSettings settings, CallSettings call) throws Exception {
        return JSON.readTree(new RequestWriter().write("the-model", settings, call, HELLO, List.of()));
    }

    @Test
    void without_a_choice_of_its_own_a_call_sends_the_clients_settings_and_no_top_p() throws Exception {
        JsonNode request = write(SETTINGS, CallSettings.NONE);

        assertThat(request.get("model").asText()).isEqualTo("the-model");
        assertThat(request.get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(request.get("max_tokens").asInt()).isEqualTo(4096);
        assertThat(request.has("top_p")).isFalse();
    }

    @Test
    void a_calls_own_temperature_top_p_and_token_limit_win_over_the_clients() throws Exception {
        JsonNode request = write(SETTINGS, new CallSettings("other", 0.9, 0.5, 100));

        assertThat(request.get("temperature").asDouble()).isEqualTo(0.9);
        assertThat(request.get("top_p").asDouble()).isEqualTo(0.5);
        assertThat(request.get("max_tokens").asInt()).isEqualTo(100);
        assertThat(request.get("model").asText()).as("the model is resolved by the client, not the writer")
                .isEqualTo("the-model");
    }

    @Test
    void a_call_that_chooses_only_some_fields_keeps_the_clients_for_the_rest() throws Exception {
        JsonNode request = write(SETTINGS, new CallSettings(null, null, 0.95, null));

        assertThat(request.get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(request.get("top_p").asDouble()).isEqualTo(0.95);
        assertThat(request.get("max_tokens").asInt()).isEqualTo(4096);
    }

    @Test
    void a_token_limit_of_the_calls_own_is_sent_even_when_the_client_sends_none() throws Exception {
        JsonNode none = write(SETTINGS.withMaxTokens(0), CallSettings.NONE);
        JsonNode own = write(SETTINGS.withMaxTokens(0), new CallSettings(null, null, null, 512));

        assertThat(none.has("max_tokens")).isFalse();
        assertThat(own.get("max_tokens").asInt()).isEqualTo(512);
    }

    @Test
    void reasoning_effort_and_a_thinking_budget_are_sent_only_when_a_call_chooses_them() throws Exception {
        JsonNode none = write(SETTINGS, CallSettings.NONE);
        JsonNode own = write(SETTINGS, new CallSettings(null, null, null, null, "high", 2048, null));
        JsonNode named = write(SETTINGS, new CallSettings(null, null, null, null, null, 512, "thinking_budget"));

        assertThat(none.has("reasoning_effort")).isFalse();
        assertThat(none.has(CallSettings.BUDGET_FIELD)).isFalse();
        assertThat(own.get("reasoning_effort").asText()).isEqualTo("high");
        assertThat(own.get("max_thinking_tokens").asInt()).isEqualTo(2048);
        assertThat(named.get("thinking_budget").asInt()).as("the installation's field name").isEqualTo(512);
        assertThat(named.has("reasoning_effort")).isFalse();
    }

    @Test
    void a_user_message_with_an_image_is_sent_as_a_text_part_and_an_image_url_part_with_a_data_url()
            throws Exception {
        List<ChatMessage> messages = List.of(new ChatMessage.User("plain"),
                new ChatMessage.User("what is this?", List.of(new ChatMessage.Image("image/png", "iVBORw0KGgo="))));

        JsonNode request = JSON.readTree(new RequestWriter().write("m", SETTINGS, CallSettings.NONE, messages,
                List.of()));

        assertThat(request.at("/messages/0/content").asText()).as("no image: a plain string").isEqualTo("plain");
        JsonNode parts = request.at("/messages/1/content");
        assertThat(parts.get(0).get("type").asText()).isEqualTo("text");
        assertThat(parts.get(0).get("text").asText()).isEqualTo("what is this?");
        assertThat(parts.get(1).get("type").asText()).isEqualTo("image_url");
        assertThat(parts.get(1).at("/image_url/url").asText()).isEqualTo("data:image/png;base64,iVBORw0KGgo=");
    }
}
