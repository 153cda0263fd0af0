package dev.agentbus.gateway.openai;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChatRequestTest {

    @Test
    void the_last_user_message_starts_the_turn_and_the_rest_of_the_conversation_is_the_sessions() {
        ChatRequest r = ChatRequest.parse("""
                {"model":"anything","messages":[{"role":"system","content":"be brief"},
                 {"role":"user","content":"first"},{"role":"assistant","content":"ok"},
                 {"role":"user","content":[{"type":"text","text":"second"},{"type":"text","text":"part"}]}],
                 "stream":true,"stream_options":{"include_usage":true},"user":"conv-7","temperature":0.2}""");

        assertThat(r).isEqualTo(new ChatRequest("second\npart", true, true, "conv-7"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "not json                                              | the body is not JSON",
            "[]                                                    | the body must be a JSON object",
            "{}                                                    | messages must be a non-empty array",
            "{\"messages\":[]}                                     | messages must be a non-empty array",
            "{\"messages\":[{\"role\":\"assistant\",\"content\":\"x\"}]} | the last message must have the role user",
            "{\"messages\":[{\"role\":\"user\",\"content\":\" \"}]}     | the last user message has no text",
            "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\"}]}]} | only text parts are taken",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":\"yes\"} | stream must be true or false",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"user\":7} | user must be a string"})
    void bad_requests_are_refused_with_what_is_wrong(String body, String reason) {
        assertThatThrownBy(() -> ChatRequest.parse(body)).isInstanceOf(OpenAiException.class)
                .hasMessageContaining(reason.strip());
    }
}
