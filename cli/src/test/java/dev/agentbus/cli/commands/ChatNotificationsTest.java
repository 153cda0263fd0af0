package dev.agentbus.cli.commands;

import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's unread notifications in chat: listed one line each when chat starts on a terminal and on
 * {@code /notifications}, then marked read up to the newest shown; a gateway without a database says so.
 */
class ChatNotificationsTest extends OnFakeGateway {
    private static final String LIST = "/api/v1/me/notifications";
    private static final String READ = "/api/v1/me/notifications/read";
    private static final String TWO_UNREAD = "{\"unread\":2,\"items\":["
            + "{\"id\":42,\"sessionId\":\"s2\",\"seq\":9,\"kind\":\"message\",\"title\":\"Notification from the agent "
            + "in “Report”\",\"body\":\"The report is ready.\",\"createdAt\":\"2025-01-01T10:05:00Z\",\"read\":false},"
            + "{\"id\":41,\"sessionId\":\"s1\",\"seq\":5,\"kind\":\"turn_ended\",\"title\":\"Turn completed in "
            + "“Fix”\",\"body\":\"Fixed.\",\"createdAt\":\"2025-01-01T10:00:00Z\",\"read\":false},"
            + "{\"id\":40,\"sessionId\":\"s1\",\"seq\":3,\"kind\":\"turn_ended\",\"title\":\"Seen before\","
            + "\"createdAt\":\"2025-01-01T09:00:00Z\",\"read\":true}]}";
    private static final String NONE = "{\"unread\":0,\"items\":[]}";

    @BeforeEach
    void routes() {
        gateway.json("POST", READ, 200, "{\"unread\":0}");
    }

    @Test
    void a_terminal_chat_starts_with_the_unread_notifications_oldest_first_and_marks_them_read() {
        gateway.jsonSequence("GET", LIST, 200, TWO_UNREAD, NONE);
        cli.interactive = true;
        cli.input("/notifications");

        assertThat(cli.run("chat")).isZero();

        String out = cli.out();
        assertThat(out).contains("2 unread notifications",
                "✉ ", "Turn completed in “Fix”: Fixed. · session s1",
                "Notification from the agent in “Report”: The report is ready. · session s2",
                "no unread notifications");
        assertThat(out).doesNotContain("Seen before");
        assertThat(out.indexOf("“Fix”")).as("oldest first").isLessThan(out.indexOf("“Report”"));
        assertThat(out.indexOf("“Report”")).as("before the prompt").isLessThan(out.indexOf("you> "));
        assertThat(gateway.requests("POST", READ)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"upTo\":42}");
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void notifications_lists_and_marks_read_and_piped_chat_does_not_look_at_start() {
        gateway.json("GET", LIST, 200, TWO_UNREAD);
        cli.input("/notifications");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("GET", LIST)).as("only for the command").hasSize(1);
        assertThat(cli.out()).contains("you> /notifications", "2 unread notifications", "The report is ready.");
        assertThat(gateway.requests("POST", READ)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"upTo\":42}");
    }

    @Test
    void more_unread_than_shown_says_so() {
        gateway.json("GET", LIST, 200, TWO_UNREAD.replace("{\"unread\":2", "{\"unread\":75"));
        cli.input("/notifications");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.out()).contains("75 unread notifications (the newest 2 shown)");
    }

    @Test
    void a_gateway_without_a_database_says_so_on_the_command_and_nothing_at_start() {
        gateway.json("GET", LIST, 503, "{\"error\":\"service_unavailable\",\"message\":\"no database\"}");
        cli.interactive = true;
        cli.input("/notifications", "/session");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("GET", LIST)).hasSize(2);
        assertThat(cli.err()).containsOnlyOnce("notifications need the gateway's database, and it has none (503)");
        assertThat(gateway.requests("POST", READ)).isEmpty();
        assertThat(cli.out()).contains("no session yet");
    }
}
