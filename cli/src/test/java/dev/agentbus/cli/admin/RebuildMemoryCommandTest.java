package dev.agentbus.cli.admin;

import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.OnFakeGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** agentbus admin rebuild-memory: asks for the rebuild, and for one user waits until their insights were replaced. */
class RebuildMemoryCommandTest extends OnFakeGateway {
    private static final String PATH = "/api/v1/admin/rebuild-memory";

    @BeforeEach
    void routes() {
        cli.env.put("AGENTBUS_TOKEN", "t0k");
    }

    @Test
    void for_one_user_it_asks_and_waits_until_that_users_insights_were_replaced() {
        gateway.json("POST", PATH, 202, "{\"rebuildId\":\"rb1\",\"user\":\"ada\",\"users\":{}}")
                .jsonSequence("GET", PATH + "/rb1", 200,
                        "{\"rebuildId\":\"rb1\",\"users\":{}}",
                        "{\"rebuildId\":\"rb1\",\"users\":{\"ada\":12}}");

        int code = cli.run("admin", "rebuild-memory", "--user", "ada", "--poll-ms", "10");

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(cli.out()).contains("memory rebuild rb1 asked for user ada")
                .contains("done: the insights of ada are now version 12");
        assertThat(gateway.requests("POST", PATH).getFirst().body()).contains("\"user\":\"ada\"");
    }

    @Test
    void for_every_user_it_returns_once_asked() {
        gateway.json("POST", PATH, 202, "{\"rebuildId\":\"rb2\",\"users\":{}}");

        assertThat(cli.run("admin", "rebuild-memory")).isEqualTo(ExitCodes.OK);
        assertThat(cli.out()).contains("asked for every user");
        assertThat(gateway.requests("POST", PATH).getFirst().body()).isEqualTo("{}");
        assertThat(gateway.requests("GET", PATH + "/rb2")).isEmpty();
    }

    @Test
    void a_refusal_of_the_gateway_is_printed_and_exits_1() {
        gateway.json("POST", PATH, 403, "{\"error\":\"forbidden\",\"message\":\"admins only\"}");

        assertThat(cli.run("admin", "rebuild-memory", "--user", "ada")).isEqualTo(ExitCodes.ERROR);
        assertThat(cli.err()).contains("403").contains("admins only");
    }
}
