package dev.agentbus.gateway.websocket;

import io.micronaut.http.HttpRequest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class AgentSocketTest {

    @Test
    void a_browser_page_of_this_gateway_may_connect_and_one_of_another_site_may_not() {
        assertThat(AgentSocket.sameOrigin(HttpRequest.GET("/ws").header("Host", "agentbus.example.org")
                .header("Origin", "https://agentbus.example.org"))).isTrue();
        assertThat(AgentSocket.sameOrigin(HttpRequest.GET("/ws").header("Host", "127.0.0.1:8080")
                .header("Origin", "http://127.0.0.1:8080"))).isTrue();
        assertThat(AgentSocket.sameOrigin(HttpRequest.GET("/ws").header("Host", "agentbus.example.org")
                .header("Origin", "https://evil.example"))).isFalse();
        assertThat(AgentSocket.sameOrigin(HttpRequest.GET("/ws").header("Host", "agentbus.example.org")
                .header("Origin", "null"))).isFalse();
        assertThat(AgentSocket.sameOrigin(HttpRequest.GET("/ws").header("Host", "agentbus.example.org")))
                .as("not a browser").isTrue();
    }

    @Test
    void a_close_reason_fits_in_a_close_frame() {
        String reason = "é".repeat(100);

        String cut = SocketOutbox.truncated(reason);

        assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(123);
        assertThat(reason).startsWith(cut);
        assertThat(SocketOutbox.truncated("short")).isEqualTo("short");
    }
}
