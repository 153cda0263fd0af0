package dev.agentbus.cli.commands;

import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.events.Json;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * submit and inbox: a task into the inbox, now or at a time, the list, a cancel; the gateway's refusal is the
 * command's error.
 */
class SubmitCommandTest extends OnFakeGateway {
    private static final String ITEM = "{\"id\":\"t-1\",\"text\":\"report\",\"at\":\"2026-11-26T09:00:00Z\","
            + "\"submittedAt\":\"2026-11-25T20:00:00Z\",\"status\":\"queued\"}";


    @Test
    void submit_posts_the_task_with_its_time_and_title_and_says_which_session_it_becomes() throws Exception {
        gateway.json("POST", "/api/v1/inbox", 201, ITEM);

        assertThat(cli.run("submit", "generate the weekly report", "--at", "2026-11-26T09:00:00Z",
                "--title", "Weekly")).isZero();

        var body = Json.mapper().readTree(gateway.requests("POST", "/api/v1/inbox").getFirst().body());
        assertThat(body.get("text").asText()).isEqualTo("generate the weekly report");
        assertThat(body.get("at").asText()).isEqualTo("2026-11-26T09:00:00Z");
        assertThat(body.get("title").asText()).isEqualTo("Weekly");
        assertThat(cli.out()).contains("queued inbox task t-1").contains("session t-1");
    }

    @Test
    void without_a_time_the_task_is_for_now() throws Exception {
        gateway.json("POST", "/api/v1/inbox", 201, ITEM);

        assertThat(cli.run("submit", "now please")).isZero();

        var body = Json.mapper().readTree(gateway.requests("POST", "/api/v1/inbox").getFirst().body());
        assertThat(body.has("at")).isFalse();
    }

    @Test
    void a_delay_becomes_the_time_it_names_and_anything_else_goes_as_typed() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-25T20:00:00Z"), ZoneOffset.UTC);
        assertThat(SubmitCommand.absolute("+90s", clock)).isEqualTo("2026-11-25T20:01:30Z");
        assertThat(SubmitCommand.absolute("+10m", clock)).isEqualTo("2026-11-25T20:10:00Z");
        assertThat(SubmitCommand.absolute("+2h", clock)).isEqualTo("2026-11-25T22:00:00Z");
        assertThat(SubmitCommand.absolute("+1d", clock)).isEqualTo("2026-11-26T20:00:00Z");
        assertThat(SubmitCommand.absolute("tomorrow", clock)).isEqualTo("tomorrow");
        assertThat(SubmitCommand.absolute(null, clock)).isNull();
    }

    @Test
    void a_refused_task_prints_the_gateways_reason_and_exits_non_zero() {
        gateway.json("POST", "/api/v1/inbox", 400,
                "{\"error\":\"bad_request\",\"message\":\"at (2020-01-01T00:00:00Z) is in the past\"}");

        assertThat(cli.run("submit", "too late", "--at", "2020-01-01T00:00:00Z")).isEqualTo(1);

        assertThat(cli.err()).contains("is in the past");
    }

    @Test
    void inbox_lists_queued_and_started_tasks_with_their_session() {
        gateway.json("GET", "/api/v1/inbox", 200, "[" + ITEM + ",{\"id\":\"t-2\",\"text\":\"tidy up\","
                + "\"at\":\"2026-11-25T20:00:00Z\",\"status\":\"started\",\"sessionId\":\"t-2\","
                + "\"startedAt\":\"2026-11-25T20:00:01Z\"}]");

        assertThat(cli.run("inbox")).isZero();

        assertThat(cli.out()).contains("t-1  queued for 2026-11-26T09:00:00Z  report")
                .contains("t-2  started 2026-11-25T20:00:01Z  session t-2  tidy up");
    }

    @Test
    void inbox_cancel_deletes_the_task_and_a_started_one_is_an_error() {
        gateway.json("DELETE", "/api/v1/inbox/t-1", 204, "");
        gateway.json("DELETE", "/api/v1/inbox/t-2", 409,
                "{\"error\":\"conflict\",\"message\":\"inbox task t-2 has started already, as session t-2\"}");

        assertThat(cli.run("inbox", "--cancel", "t-1")).isZero();
        assertThat(cli.out()).contains("cancelled inbox task t-1");
        assertThat(gateway.requests("DELETE", "/api/v1/inbox/t-1")).hasSize(1);

        assertThat(cli.run("inbox", "--cancel", "t-2")).isEqualTo(1);
        assertThat(cli.err()).contains("has started already");
    }
}
