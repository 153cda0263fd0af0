package dev.agentbus.sandbox.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The network of a bubblewrap sandbox that may use one ({@code agentbus.sandbox.network=true}): a network namespace
 * of its own, connected to the outside by slirp4netns, user-mode networking that makes the sandbox's connections from
 * the worker's own process. Sharing the host's network instead (bubblewrap's {@code --share-net}) let a session reach
 * everything listening on the host's loopback: the embedded PostgreSQL, Kafka, the gateway (issue 28).
 *
 * <p>The sandbox sees one interface, {@code tap0} (10.0.2.100/24), its gateway 10.0.2.2 and a DNS forwarder at
 * 10.0.2.3. slirp4netns runs with {@code --disable-host-loopback}, so 10.0.2.2 does not lead to the host's
 * 127.0.0.1, and the sandbox's own 127.0.0.1 is its own loopback. The host's other addresses are reached like any
 * address on the network, so a service of the host that should stay private listens on loopback only (the standalone
 * stack's all do).
 *
 * <p>How: a host-side {@code sh} (the {@link #LAUNCHER} below) starts {@code unshare --net} (with {@code --user
 * --map-current-user} for a worker that is not root, so that it may), which waits until slirp4netns has plugged the
 * new namespace in and then becomes bubblewrap, sharing that namespace. bubblewrap thus never sees the host's
 * network: whatever fails on the way, the sandbox has no network rather than the host's. The launcher stays
 * bubblewrap's parent ({@code --die-with-parent} is about it) and holds slirp4netns's exit pipe, so killing it ends
 * the sandbox and its network together.
 */
public final class UserModeNetwork {
    /** The fd on which the launcher hands bubblewrap the sandbox's resolv.conf ({@code --ro-bind-data}). */
    static final String RESOLV_FD = "6";

    /**
     * $1: slirp4netns, $2: {@code root} or {@code user}, then bubblewrap's argv. Prints nothing when all goes well
     * (its output is the sandbox's); a failure is one line on stderr and exit code 125. The namespace's first
     * process ({@code inner}) says it is in, waits for the network, then becomes bubblewrap.
     */
    static final String LAUNCHER = """
            set -u
            slirp=$1; mode=$2; shift 2
            fail() { echo "agentbus: the sandbox's network could not be set up: $1" >&2; exit 125; }
            inner='echo in > "$1"; read -r _ < "$2"; shift 2; exec "$@"'
            dir=$(mktemp -d "${TMPDIR:-/tmp}/agentbus-net.XXXXXXXX") || fail "mktemp"
            mkfifo "$dir/in" "$dir/go" "$dir/ready" "$dir/exit" || fail "mkfifo"
            echo 'nameserver 10.0.2.3' > "$dir/resolv.conf"
            if [ "$mode" = root ]; then
                set -- unshare --net -- /bin/sh -c "$inner" inner "$dir/in" "$dir/go" "$@"
            else
                set -- unshare --user --map-current-user --net -- /bin/sh -c "$inner" inner "$dir/in" "$dir/go" "$@"
            fi
            # Through fd 3: sh gives a command run with & /dev/null as its stdin before its own redirections.
            exec 3<&0
            "$@" 6<"$dir/resolv.conf" 0<&3 3<&- &
            pid=$!
            exec 3<&-
            read -r _ <"$dir/in" || { rm -rf "$dir"; fail "unshare failed"; }
            [ "$(readlink /proc/$pid/ns/net)" != "$(readlink /proc/self/ns/net)" ] \
                || { kill -9 $pid; rm -rf "$dir"; fail "no network namespace of its own"; }
            if [ "$mode" = root ]; then userns=; else userns=--userns-path=/proc/$pid/ns/user; fi
            "$slirp" --configure --mtu=65520 --disable-host-loopback --ready-fd=7 --exit-fd=8 $userns \
                --netns-type=path "/proc/$pid/ns/net" tap0 7>"$dir/ready" 8<"$dir/exit" >/dev/null 2>"$dir/log" &
            exec 7<"$dir/ready" 9>"$dir/exit"
            if [ "$(head -c 1 <&7)" != 1 ]; then
                kill -9 $pid; log=$(head -c 300 "$dir/log"); rm -rf "$dir"; fail "slirp4netns: $log"
            fi
            echo go > "$dir/go"
            rm -rf "$dir"
            exec 7<&-
            wait $pid
            """;

    private UserModeNetwork() {
    }

    /** The slirp4netns executable ({@code agentbus.sandbox.slirp4netns}), if installed. */
    public static Optional<Path> find(String slirp4netns) {
        return Bubblewrap.locate(slirp4netns);
    }

    /** bubblewrap's options for the resolver inside: slirp4netns's, not the host's (which may be on its loopback). */
    static List<String> resolverBinds() {
        return List.of("--ro-bind-data", RESOLV_FD, "/etc/resolv.conf");
    }

    /**
     * Wraps {@code bwrapArgv}, which must share its parent's network ({@code --share-net}) and take its resolv.conf
     * from {@link #resolverBinds}, in the launcher.
     */
    static List<String> wrap(Path slirp4netns, List<String> bwrapArgv) {
        boolean workerIsRoot;
        try {
            workerIsRoot = (Integer) java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        } catch (java.io.IOException | RuntimeException e) {
            workerIsRoot = false; // then unshare makes a user namespace too, which root does not need but may do
        }
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", LAUNCHER, "agentbus-net",
                slirp4netns.toString(), workerIsRoot ? "root" : "user"));
        argv.addAll(bwrapArgv);
        return argv;
    }
}
