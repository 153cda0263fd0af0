package dev.agentbus.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** URL and token resolution, error wording and exit codes shared by every command. */
class GlobalOptionsTest {
    @TempDir
    Path home;
    FakeGateway gateway;
    TestCli cli;

    @BeforeEach
    void setUp() throws Exception {
        gateway = new FakeGateway().json("GET", "/api/v1/sessions", 200, "[]");
        cli = new TestCli(home);
    }

    @AfterEach
    void tearDown() {
        gateway.close();
    }

    private String lastAuthorization() {
        var requests = gateway.requests();
        return requests.get(requests.size() - 1).header("Authorization");
    }

    @Test
    void url_and_token_options_work_before_and_after_the_command() {
        assertThat(cli.run("--url", gateway.url(), "--token", "a", "sessions")).isZero();
        assertThat(lastAuthorization()).isEqualTo("Bearer a");
        assertThat(cli.run("sessions", "--url", gateway.url(), "--token", "b")).isZero();
        assertThat(lastAuthorization()).isEqualTo("Bearer b");
    }

    @Test
    void the_token_comes_from_the_option_then_the_environment_then_the_token_file() throws Exception {
        cli.env.put("AGENTBUS_URL", gateway.url());
        Path dataDir = Files.createDirectories(home.resolve("data"));
        Files.writeString(dataDir.resolve("gateway-token"), "from-file\n");
        cli.env.put("AGENTBUS_DATA_DIR", dataDir.toString());

        cli.run("sessions");
        assertThat(lastAuthorization()).isEqualTo("Bearer from-file");

        cli.env.put("AGENTBUS_TOKEN", "from-env");
        cli.run("sessions");
        assertThat(lastAuthorization()).isEqualTo("Bearer from-env");

        cli.run("sessions", "--token", "from-option");
        assertThat(lastAuthorization()).isEqualTo("Bearer from-option");
    }

    @Test
    void the_token_file_defaults_to_dot_agentbus_in_home() throws Exception {
        cli.env.put("AGENTBUS_URL", gateway.url());
        Files.createDirectories(home.resolve(".agentbus"));
        Files.writeString(home.resolve(".agentbus/gateway-token"), "home-token");

        cli.run("sessions");
        assertThat(lastAuthorization()).isEqualTo("Bearer home-token");
    }

    @Test
    void no_token_means_no_authorization_header() {
        cli.env.put("AGENTBUS_URL", gateway.url());
        cli.run("sessions");
        assertThat(lastAuthorization()).isNull();
    }

    @Test
    void a_refused_token_exits_1_and_says_how_to_set_one() {
        gateway.requireToken("right");
        cli.env.put("AGENTBUS_URL", gateway.url());
        cli.env.put("AGENTBUS_TOKEN", "wrong");

        assertThat(cli.run("sessions")).isEqualTo(1);
        assertThat(cli.err()).contains("the gateway refused the token (set AGENTBUS_TOKEN or --token)");
    }

    @Test
    void an_unreachable_gateway_exits_1_naming_the_url() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // free now, and nobody listens after the socket closes
        }
        String url = "http://127.0.0.1:" + port;

        assertThat(cli.run("--url", url, "run", "hi")).isEqualTo(1);
        assertThat(cli.err()).contains("cannot reach the gateway at " + url + ": connection refused");
    }

    @Test
    void the_default_url_is_localhost_8080() {
        AgentbusCli parsed = new AgentbusCli(new CliContext(cli.env, home, false, cli.interrupts));
        assertThat(parsed.resolveUrl()).isEqualTo("http://localhost:8080");
    }

    @Test
    void a_gateway_error_body_is_shown() {
        gateway.json("GET", "/api/v1/sessions", 503, "{\"error\":\"unavailable\",\"message\":\"kafka is down\"}");
        cli.env.put("AGENTBUS_URL", gateway.url());

        assertThat(cli.run("sessions")).isEqualTo(1);
        assertThat(cli.err()).contains("the gateway answered HTTP 503: kafka is down");
    }

    @Test
    void usage_errors_exit_64() {
        assertThat(cli.run("run")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("Missing required parameter: 'TASK'");
        assertThat(cli.run("frobnicate")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("sessions", "--bogus")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void help_lists_every_command_and_exits_0() {
        assertThat(cli.run("--help")).isZero();
        assertThat(cli.out()).contains("run", "sessions", "show", "events", "cancel");
        assertThat(cli.run("run", "--help")).isZero();
        assertThat(cli.out()).contains("--no-stream-reasoning", "--session", "--title", "--quiet");
    }

    @Test
    void colours_only_on_a_terminal_without_no_color() {
        assertThat(new CliContext(java.util.Map.of(), home, true, cli.interrupts).colour()).isTrue();
        assertThat(new CliContext(java.util.Map.of("NO_COLOR", "1"), home, true, cli.interrupts).colour()).isFalse();
        assertThat(new CliContext(java.util.Map.of(), home, false, cli.interrupts).colour()).isFalse();
    }
}
