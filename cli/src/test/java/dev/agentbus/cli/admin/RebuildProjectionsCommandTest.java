package dev.agentbus.cli.admin;

import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** agentbus admin rebuild-projections: starts the rebuild, follows its progress, and says how it ended. */
class RebuildProjectionsCommandTest extends OnFakeGateway {
    private static final String PATH = "/api/v1/admin/rebuild-projections";
    private static final String STARTED = """
            {"run":4,"reason":"rebuild","state":"running","eventsApplied":0,"recordsSkipped":0,
             "offsetsDone":0,"offsetsTotal":1000,"percent":0.0}""";

    @BeforeEach
    void routes() {
        cli.env.put("AGENTBUS_TOKEN", "t0k");
    }

    @Test
    void it_starts_the_rebuild_shows_progress_and_exits_0_once_caught_up() {
        gateway.json("POST", PATH, 202, STARTED).jsonSequence("GET", PATH, 200,
                """
                {"run":4,"state":"running","eventsApplied":500,"percent":50.0,"eventsPerSecond":1000.0}""",
                """
                {"run":4,"state":"caught_up","eventsApplied":1000,"recordsSkipped":2,"percent":100.0,
                 "eventsPerSecond":2000.0}""");

        int code = cli.run("admin", "rebuild-projections", "--poll-ms", "10");

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(cli.out()).contains("rebuild started (run 4): 1,000 offsets of the session log to read")
                .contains("50.0%  500 events (1,000 events/s)")
                .contains("done: 1,000 events applied (2,000 events/s); 2 unreadable records skipped");
        assertThat(gateway.requests("POST", PATH)).hasSize(1);
        assertThat(gateway.requests("POST", PATH).getFirst().header("Authorization")).isEqualTo("Bearer t0k");
    }

    @Test
    void without_postgresql_it_prints_the_gateways_reason_and_exits_1() {
        gateway.json("POST", PATH, 503, """
                {"error":"service_unavailable","message":"PostgreSQL is not configured: set AGENTBUS_DB_URL"}""");

        int code = cli.run("admin", "rebuild-projections");

        assertThat(code).isEqualTo(ExitCodes.ERROR);
        assertThat(cli.err()).contains("503").contains("PostgreSQL is not configured");
    }

    @Test
    void no_wait_returns_at_once() {
        gateway.json("POST", PATH, 202, STARTED);

        assertThat(cli.run("admin", "rebuild-projections", "--no-wait")).isEqualTo(ExitCodes.OK);
        assertThat(gateway.requests("GET", PATH)).isEmpty();
    }

    @Test
    void a_rebuild_that_does_not_catch_up_in_time_exits_1_and_says_it_goes_on() {
        gateway.json("POST", PATH, 202, STARTED).json("GET", PATH, 200, """
                {"run":4,"state":"running","eventsApplied":1,"percent":0.1}""");

        int code = cli.run("admin", "rebuild-projections", "--timeout", "0", "--poll-ms", "10");

        assertThat(code).isEqualTo(ExitCodes.ERROR);
        assertThat(cli.err()).contains("has not caught up after 0 s").contains("goes on in the gateway");
    }

    @Test
    void a_newer_rebuild_replacing_this_one_exits_1() {
        gateway.json("POST", PATH, 202, STARTED).json("GET", PATH, 200, """
                {"run":5,"state":"running","percent":3.0}""");

        assertThat(cli.run("admin", "rebuild-projections", "--poll-ms", "10")).isEqualTo(ExitCodes.ERROR);
        assertThat(cli.err()).contains("another rebuild (run 5)");
    }

    @Test
    void admin_without_an_operation_is_a_usage_error() {
        assertThat(cli.run("admin")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("missing command").contains("rebuild-projections");
    }
}
