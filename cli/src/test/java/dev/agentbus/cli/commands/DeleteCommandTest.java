package dev.agentbus.cli.commands;

import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** delete: the request it sends, and the gateway's refusals shown with exit code 1. */
class DeleteCommandTest extends OnFakeGateway {
    @Test
    void delete_sends_a_delete_of_the_session() {
        gateway.json("DELETE", "/api/v1/sessions/s1", 202, "{\"inputId\":\"in-1\"}");

        assertThat(cli.run("delete", "s1")).isZero();

        assertThat(gateway.requests("DELETE", "/api/v1/sessions/s1")).hasSize(1);
        assertThat(cli.out()).contains("session s1 deleted");
    }

    @Test
    void a_session_of_someone_else_is_an_error_with_the_gateways_reason() {
        gateway.json("DELETE", "/api/v1/sessions/s2", 403,
                "{\"error\":\"forbidden\",\"message\":\"only the owner of session s2 may delete it\"}");

        assertThat(cli.run("delete", "s2")).isEqualTo(1);
        assertThat(cli.err()).contains("only the owner of session s2 may delete it");
    }
}
