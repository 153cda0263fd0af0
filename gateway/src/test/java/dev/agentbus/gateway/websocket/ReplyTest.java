package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The messages of /ws, exactly as docs/websocket.md shows them. */
class ReplyTest {

    @Test
    void a_result_echoes_the_id_as_it_was_sent_and_leaves_out_what_it_has_not() {
        assertThat(Reply.Result.of(new IntNode(7), "read_file", "hi\n").withCallId("user-1").json())
                .isEqualTo("{\"type\":\"result\",\"id\":7,\"command\":\"read_file\",\"result\":\"hi\\n\","
                        + "\"callId\":\"user-1\"}");
        assertThat(Reply.Result.of(null, "vm_execute", "ok\nexit code: 0").withExitCode(0).json())
                .isEqualTo("{\"type\":\"result\",\"command\":\"vm_execute\",\"result\":\"ok\\nexit code: 0\","
                        + "\"exitCode\":0}");
    }

    @Test
    void a_delta_an_error_a_notification_and_ready() {
        assertThat(new Reply.Delta(new TextNode("c"), "chat", "content", "Hel").json())
                .isEqualTo("{\"type\":\"delta\",\"id\":\"c\",\"command\":\"chat\",\"stream\":\"content\","
                        + "\"text\":\"Hel\"}");
        assertThat(new Reply.Failure(null, "x", "unknown_command", "unknown command 'x'").json())
                .isEqualTo("{\"type\":\"error\",\"command\":\"x\",\"error\":\"unknown_command\","
                        + "\"message\":\"unknown command 'x'\"}");
        assertThat(new Reply.Notification("s", 9, Instant.parse("2025-06-02T09:14:03Z"), "ada", "done").json())
                .isEqualTo("{\"type\":\"notification\",\"sessionId\":\"s\",\"seq\":9,"
                        + "\"time\":\"2025-06-02T09:14:03Z\",\"sentBy\":\"ada\",\"message\":\"done\"}");
        assertThat(new Reply.Ready("s", "ada", 10, 20, List.of("chat")).json())
                .isEqualTo("{\"type\":\"ready\",\"sessionId\":\"s\",\"userId\":\"ada\",\"maxTextBytes\":10,"
                        + "\"maxUploadBytes\":20,\"commands\":[\"chat\"]}");
    }

    @Test
    void list_dir_answers_in_os_agents_shape_and_download_file_in_snake_case() {
        var file = new WebSocketCommands.DownloadedFile("a.txt", "docs/a.txt", "aGk=", 2, "abc");
        assertThat(Reply.Result.of(null, "download_file", file).json()).isEqualTo("{\"type\":\"result\","
                + "\"command\":\"download_file\",\"result\":{\"file_name\":\"a.txt\",\"path\":\"docs/a.txt\","
                + "\"file_data\":\"aGk=\",\"bytes\":2,\"sha256\":\"abc\"}}");
        assertThat(Reply.Result.of(null, "list_dir", List.of(List.of("src", true), List.of("a.txt", false))).json())
                .isEqualTo("{\"type\":\"result\",\"command\":\"list_dir\",\"result\":[[\"src\",true],"
                        + "[\"a.txt\",false]]}");
    }
}
