package dev.agentbus.modelclient;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A model server a user chose goes through the outgoing policy before every call, and its error answers are never
 * quoted (issue 28: a user's {@code baseUrl} on an internal address, and an internal service's error text copied into
 * the session). The operator's own server keeps its words.
 */
class UserChosenServerTest {
    static final String MARKER = "INTERNAL-SECRET-42";
    static final List<ChatMessage> HELLO = List.of(new ChatMessage.User("hello"));

    @Test
    void a_users_server_on_loopback_is_refused_before_anything_is_sent() {
        try (ScriptedModelServer internal = ScriptedModelServer.start("m");
             ModelClient client = new ModelClient(ModelSettings.of(internal.baseUrl(), "m"), OutgoingPolicy.DEFAULT)) {
            internal.replyText("should never be asked");
            assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                    .isInstanceOf(ModelCallException.class).hasMessageContaining("internal address")
                    .hasMessageContaining("agentbus.outgoing.allow");
            assertThat(client.capabilities("m")).isEqualTo(ModelCapabilities.UNKNOWN);
            assertThat(client.contextWindow()).isEmpty();
            assertThat(internal.requestCount() + internal.modelListRequestCount()).isZero();
        }
    }

    @Test
    void an_allowed_users_server_is_called_and_its_error_body_is_never_quoted() throws Exception {
        OutgoingPolicy lan = OutgoingPolicy.allowing("127.0.0.1");
        try (ScriptedModelServer allowed = ScriptedModelServer.start("m");
             ModelClient client = new ModelClient(ModelSettings.of(allowed.baseUrl(), "m").withMaxRetries(0), lan)) {
            allowed.replyText("hi");
            assertThat(client.complete(HELLO, List.of(), null).content()).isEqualTo("hi");

            allowed.failNext(500, "{\"error\":{\"message\":\"" + MARKER + " at jdbc:postgresql://db\"}}");
            assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                    .isInstanceOf(ModelCallException.class)
                    .hasMessageContaining("HTTP 500 (internal server error)")
                    .hasMessageNotContaining(MARKER);
            allowed.failNext(400, MARKER + " plain text");
            assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                    .hasMessageContaining("HTTP 400").hasMessageNotContaining(MARKER);
        }
    }

    @Test
    void the_operators_server_keeps_its_words() {
        try (ScriptedModelServer team = ScriptedModelServer.start("m");
             ModelClient client = new ModelClient(ModelSettings.of(team.baseUrl(), "m").withMaxRetries(0))) {
            team.failNext(400, "{\"error\":{\"message\":\"model 'x' not loaded\"}}");
            assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                    .hasMessageContaining("HTTP 400: model 'x' not loaded");
        }
    }
}
