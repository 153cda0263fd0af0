package dev.agentbus.sandbox.shell;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The argv of an MCP server's sandbox, as bwrap reads it: in order, each mount over the ones before it. */
class BubblewrapProgramTest {

    @Test
    void a_package_directory_below_tmp_is_bound_over_the_private_tmp_not_hidden_under_it() {
        // given a checkout in /tmp, whose target/ holds the MCP servers' packages
        Path packages = Path.of("/tmp/checkout/target/mcp-npm");

        // when the server's sandbox is described
        List<String> argv = Bubblewrap.program(Path.of("/nonexistent/bwrap"), Path.of("/srv/ws/u/s"), false, 1000,
                1000, List.of(packages), Map.of("GREETING", "hi"), List.of("node", "server.js"));

        // then the package directory's bind comes after the empty /tmp, and before the root is made read-only
        int tmpfs = indexOfPair(argv, "--tmpfs", "/tmp");
        int bind = indexOfPair(argv, "--ro-bind", packages.toString());
        int readOnlyRoot = indexOfPair(argv, "--remount-ro", "/");
        assertThat(tmpfs).isNotNegative();
        assertThat(bind).isGreaterThan(tmpfs).isLessThan(readOnlyRoot);
        assertThat(argv.subList(argv.indexOf("--") + 1, argv.size())).containsExactly("node", "server.js");
    }

    private static int indexOfPair(List<String> argv, String option, String value) {
        for (int i = 0; i + 1 < argv.size(); i++) {
            if (argv.get(i).equals(option) && argv.get(i + 1).equals(value)) {
                return i;
            }
        }
        return -1;
    }
}
