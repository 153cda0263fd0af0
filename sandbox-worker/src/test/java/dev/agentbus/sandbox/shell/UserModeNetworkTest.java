package dev.agentbus.sandbox.shell;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bubblewrap never shares the host's network: {@code --share-net} only appears inside the launcher that gave it a
 * namespace of its own (issue 28). The launcher itself is run against real bubblewrap in BubblewrapNetworkIT.
 */
class UserModeNetworkTest {
    private static final Path BWRAP = Path.of("/nonexistent/bwrap");
    private static final Path WORKSPACE = Path.of("/srv/ws/u/s");

    @Test
    void without_the_network_the_sandbox_shares_no_network_at_all() {
        List<String> argv = Bubblewrap.persistentShell(BWRAP, WORKSPACE, null, 1000, 1000);

        assertThat(argv.getFirst()).isEqualTo(BWRAP.toString());
        assertThat(argv).contains("--unshare-all").doesNotContain("--share-net", "/etc/resolv.conf");
    }

    @Test
    void with_the_network_bubblewrap_shares_only_the_namespace_the_launcher_made_for_it() {
        List<String> argv = Bubblewrap.persistentShell(BWRAP, WORKSPACE, Path.of("/usr/bin/slirp4netns"), 1000,
                1000);

        assertThat(argv.subList(0, 4)).containsExactly("/bin/sh", "-c", UserModeNetwork.LAUNCHER, "agentbus-net");
        assertThat(argv.get(4)).isEqualTo("/usr/bin/slirp4netns");
        assertThat(argv.get(5)).isIn("root", "user");
        List<String> bwrap = argv.subList(6, argv.size());
        assertThat(bwrap.getFirst()).isEqualTo(BWRAP.toString());
        assertThat(bwrap).contains("--share-net").containsSequence("--ro-bind-data", "6", "/etc/resolv.conf");
        assertThat(UserModeNetwork.LAUNCHER).contains("--disable-host-loopback").contains("unshare --net")
                .contains("6<\"$dir/resolv.conf\"");
    }
}
