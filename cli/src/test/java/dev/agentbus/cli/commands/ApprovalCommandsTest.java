package dev.agentbus.cli.commands;

import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** approve, deny and mode: what a person runs when a session waits for them. */
class ApprovalCommandsTest extends OnFakeGateway {

    @Test
    void approve_posts_the_decision() {
        gateway.json("POST", "/api/v1/sessions/s1/approvals/call_1", 202, "{\"inputId\":\"in-1\"}");

        assertThat(cli.run("approve", "s1", "call_1")).isZero();

        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/approvals/call_1")).singleElement()
                .satisfies(r -> assertThat(r.body()).isEqualTo("{\"decision\":\"approve\"}"));
        assertThat(cli.out()).contains("approved: call_1 in session s1");
    }

    @Test
    void approve_always_and_deny_with_a_note() {
        gateway.json("POST", "/api/v1/sessions/s1/approvals/call_1", 202, "{\"inputId\":\"in-1\"}");
        gateway.json("POST", "/api/v1/sessions/s1/approvals/call_2", 202, "{\"inputId\":\"in-2\"}");

        assertThat(cli.run("approve", "--always", "s1", "call_1")).isZero();
        assertThat(cli.run("deny", "s1", "call_2", "--note", "use the write tool")).isZero();

        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/approvals/call_1").getFirst().body())
                .isEqualTo("{\"decision\":\"always\"}");
        assertThat(gateway.requests("POST", "/api/v1/sessions/s1/approvals/call_2").getFirst().body())
                .isEqualTo("{\"decision\":\"deny\",\"note\":\"use the write tool\"}");
        assertThat(cli.out()).contains("denied: call_2");
    }

    @Test
    void a_call_that_is_not_pending_is_an_error_with_the_gateways_reason() {
        gateway.json("POST", "/api/v1/sessions/s1/approvals/call_9", 409,
                "{\"error\":\"conflict\",\"message\":\"no approval is pending for call call_9 in session s1\"}");

        assertThat(cli.run("approve", "s1", "call_9")).isEqualTo(1);
        assertThat(cli.err()).contains("no approval is pending for call call_9");
    }

    @Test
    void mode_puts_the_mode_and_a_bad_one_shows_the_gateways_message() {
        gateway.json("PUT", "/api/v1/sessions/s1/mode", 202, "{\"inputId\":\"in-1\"}");
        assertThat(cli.run("mode", "s1", "normal")).isZero();
        assertThat(gateway.requests("PUT", "/api/v1/sessions/s1/mode").getFirst().body())
                .isEqualTo("{\"mode\":\"normal\"}");

        gateway.json("PUT", "/api/v1/sessions/s2/mode", 400,
                "{\"error\":\"bad_request\",\"message\":\"mode must be auto, normal or manual\"}");
        assertThat(cli.run("mode", "s2", "yolo")).isEqualTo(1);
        assertThat(cli.err()).contains("mode must be auto, normal or manual");
    }

    @Test
    void show_lists_the_pending_approvals_with_the_command_that_decides_them() {
        gateway.json("GET", "/api/v1/sessions/s1", 200, """
                {"sessionId":"s1","title":"tidy","status":"AWAITING_APPROVAL","lastSeq":5,"turns":1,"modelCalls":1,
                 "permissionMode":"normal","alwaysAllowed":["ls"],
                 "pendingApprovals":[{"callId":"call_rm","tool":"shell","arguments":"{\\"command\\":\\"rm -rf build\\"}",
                   "risk":"high","reason":"normal mode","expiresAt":"2025-01-01T10:30:00Z"}]}""");

        assertThat(cli.run("show", "s1")).isZero();

        assertThat(cli.out()).contains("status   AWAITING_APPROVAL")
                .contains("mode     normal · always allowed: ls")
                .contains("shell {\"command\":\"rm -rf build\"}").contains("high risk")
                .contains("agentbus approve s1 call_rm");
    }
}
