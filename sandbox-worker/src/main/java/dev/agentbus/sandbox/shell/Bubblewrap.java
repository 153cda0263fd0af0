package dev.agentbus.sandbox.shell;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Knows how to find bubblewrap and how to build the command line of the sandbox.
 *
 * <p>The sandbox view: {@code /usr} read-only (with the merged-/usr links {@code /bin}, {@code /lib} … that the
 * host has), a handful of read-only {@code /etc} files that ordinary tools look up, a private {@code /proc},
 * {@code /dev} and {@code /tmp}, and the workspace bound read-write at {@code /workspace}. Everything else of the
 * host (home directories, {@code /etc/shadow}, {@code /var}, {@code /root}, the worker's own files) does not exist
 * in there. The root is remounted read-only at the end so the workspace is the only writable place that outlives
 * the command ({@code /tmp} is a private tmpfs that vanishes with it).
 *
 * <p>All namespaces are unshared (no network, or one of its own with user-mode networking, never the host's; own pid
 * space so that killing bwrap kills everything started inside),
 * all capabilities are dropped even when the worker runs as root, and the environment is cleared so no secret
 * of the worker (API keys, Kafka credentials) can be read by a command the model wrote.
 */
public final class Bubblewrap {
    /** Where the workspace appears inside the sandbox, and the working directory of every command. */
    public static final String SANDBOX_WORKSPACE = "/workspace";

    /** The fixed PATH inside the sandbox (and in unsafe host mode): never the worker's own. */
    public static final String SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

    /** Top-level directories that merged-/usr systems provide as links into /usr, others as real directories. */
    private static final List<String> USR_LINKS = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

    /**
     * Files under /etc that common tools read (user names for {@code ls -l} and {@code id}, the loader cache, the
     * time zone, Debian's alternatives links which /usr/bin/awk and friends point into). Deliberately no shadow,
     * no ssl private keys, no resolver config (there is no network anyway).
     */
    private static final List<String> ETC_READ_ONLY = List.of("/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
            "/etc/hosts", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
            "/etc/alternatives");

    private Bubblewrap() {
    }

    /**
     * Resolves the executable to an absolute path. Done by us, not by {@link ProcessBuilder}, because the child
     * is started with an empty environment and we want one lookup rule for the check and for the start.
     */
    static Optional<Path> locate(String bwrapPath) {
        if (bwrapPath == null || bwrapPath.isBlank()) {
            return Optional.empty();
        }
        try {
            if (bwrapPath.contains("/")) {
                return executable(Path.of(bwrapPath));
            }
            String searchPath = System.getenv("PATH");
            if (searchPath == null) {
                return Optional.empty();
            }
            for (String dir : searchPath.split(File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    Optional<Path> found = executable(Path.of(dir, bwrapPath));
                    if (found.isPresent()) {
                        return found;
                    }
                }
            }
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<Path> executable(Path candidate) {
        return Files.isRegularFile(candidate) && Files.isExecutable(candidate)
                ? Optional.of(candidate.toAbsolutePath())
                : Optional.empty();
    }

    /**
     * The argv of a persistent sandbox: the same view, a long-lived {@code /bin/sh} reading commands from stdin,
     * run as {@code uid}/{@code gid} inside a user namespace (whatever the worker's own uid, files it creates in
     * the workspace belong to the worker on the host). With {@code slirp4netns} the sandbox has a network of its own
     * ({@link UserModeNetwork}); without it (null), none. Never the host's.
     */
    public static List<String> persistentShell(Path bwrap, Path workspace, Path slirp4netns, int uid, int gid) {
        List<String> argv = sandboxed(bwrap, workspace, slirp4netns != null, uid, gid, List.of());
        argv.add("/bin/sh");
        return withNetwork(slirp4netns, argv);
    }

    /**
     * The argv of an MCP server's sandbox: the same view and isolation as the persistent shell's, plus host
     * directories bound read-only at the same path (where the server's package is installed, say), its own
     * environment variables, and its command line instead of the shell. Killing bwrap kills the server. With
     * {@code network}, user-mode networking as for the shell, which needs slirp4netns on the worker's PATH.
     */
    public static List<String> program(Path bwrap, Path workspace, boolean network, int uid, int gid,
                                       List<Path> readOnlyDirs, Map<String, String> env, List<String> command) {
        Path slirp4netns = null;
        if (network) {
            slirp4netns = UserModeNetwork.find("slirp4netns").orElseThrow(() -> new IllegalStateException(
                    "agentbus.mcp.network=true needs slirp4netns (apt-get install slirp4netns): a sandboxed MCP "
                            + "server gets a network of its own, never the host's"));
        }
        List<String> binds = new ArrayList<>();
        for (Path dir : readOnlyDirs) {
            binds.addAll(List.of("--ro-bind", dir.toString(), dir.toString()));
        }
        List<String> argv = sandboxed(bwrap, workspace, network, uid, gid, binds);
        env.forEach((name, value) -> argv.addAll(List.of("--setenv", name, value)));
        argv.add("--");
        argv.addAll(command);
        return withNetwork(slirp4netns, argv);
    }

    private static List<String> withNetwork(Path slirp4netns, List<String> argv) {
        return slirp4netns == null ? argv
                : UserModeNetwork.wrap(slirp4netns, argv);
    }

    /**
     * With {@code network}, bubblewrap shares the network namespace it is started in, which is the one
     * {@link UserModeNetwork}'s launcher made for it (the only caller that passes true), with slirp4netns's resolver
     * and the CA certificates.
     */
    private static List<String> sandboxed(Path bwrap, Path workspace, boolean network, int uid, int gid,
                                          List<String> extraBinds) {
        List<String> binds = new ArrayList<>(extraBinds);
        if (network) {
            binds.addAll(UserModeNetwork.resolverBinds());
            binds.addAll(List.of("--ro-bind-try", "/etc/ssl", "/etc/ssl", "--ro-bind-try", "/etc/ca-certificates",
                    "/etc/ca-certificates"));
        }
        List<String> argv = view(bwrap, workspace, binds);
        // --unshare-user explicitly (--unshare-all only tries), because --disable-userns needs it: no nested user
        // namespaces, so no "root" inside one from which to mount or unshare more (bubblewrap 0.8 and later).
        argv.addAll(List.of("--unshare-all", "--unshare-user"));
        if (supportsDisableUserns(bwrap)) {
            argv.add("--disable-userns");
        }
        if (network) {
            argv.add("--share-net");
        }
        argv.addAll(List.of("--uid", Integer.toString(uid), "--gid", Integer.toString(gid),
                "--hostname", "sandbox", "--die-with-parent", "--new-session", "--cap-drop", "ALL"));
        argv.addAll(environment());
        return argv;
    }

    private static final Map<Path, Boolean> DISABLE_USERNS = new ConcurrentHashMap<>();

    /** Whether this bwrap knows {@code --disable-userns} (asked once per executable). */
    static boolean supportsDisableUserns(Path bwrap) {
        return DISABLE_USERNS.computeIfAbsent(bwrap, path -> {
            try {
                Process help = new ProcessBuilder(path.toString(), "--help").redirectErrorStream(true).start();
                String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                help.waitFor();
                return text.contains("--disable-userns");
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }

    /**
     * Locates the executable: a path containing {@code /} must be an executable file, a bare name is looked up on
     * the worker's PATH.
     */
    public static Optional<Path> find(String bwrapPath) {
        return locate(bwrapPath);
    }

    private static List<String> environment() {
        return List.of("--clearenv",
                "--setenv", "PATH", SANDBOX_PATH,
                "--setenv", "HOME", SANDBOX_WORKSPACE,
                "--setenv", "LANG", "C.UTF-8",
                "--setenv", "TMPDIR", "/tmp");
    }

    /** The file system: read-only system, private /proc, /dev and /tmp, the workspace the only writable bind. */
    private static List<String> view(Path bwrap, Path workspace, List<String> extraBinds) {
        List<String> argv = new ArrayList<>(List.of(bwrap.toString(), "--ro-bind", "/usr", "/usr"));
        for (String name : USR_LINKS) {
            Path host = Path.of("/", name);
            if (Files.isSymbolicLink(host)) {
                argv.addAll(List.of("--symlink", "usr/" + name, "/" + name));
            } else if (Files.isDirectory(host, LinkOption.NOFOLLOW_LINKS)) {
                argv.addAll(List.of("--ro-bind", host.toString(), host.toString()));
            }
        }
        for (String etc : ETC_READ_ONLY) {
            argv.addAll(List.of("--ro-bind-try", etc, etc));
        }
        argv.addAll(List.of(
                "--proc", "/proc",
                "--dev", "/dev",
                "--tmpfs", "/tmp",
                "--bind", workspace.toString(), SANDBOX_WORKSPACE));
        // After the private /tmp: an extra directory below /tmp on the host (a checkout in /tmp, with the MCP
        // servers' packages in its target/) would otherwise be hidden under the empty tmpfs.
        argv.addAll(extraBinds);
        argv.addAll(List.of(
                "--remount-ro", "/",
                "--chdir", SANDBOX_WORKSPACE));
        return argv;
    }
}
