package dev.agentbus.sandbox.safety;

import java.util.Arrays;
import java.util.List;

/**
 * The command safety layer's configuration: a second line of defence behind the sandbox's isolation, so a model that
 * asks for something it should not gets a clear refusal (recorded in the log) instead of relying on the sandbox alone
 * to make it fail.
 *
 * @param blockedCommands    commands that are never run. An entry is a program name ({@code sudo}), a name with a
 *                           trailing {@code *} for a family ({@code mkfs*} also blocks {@code mkfs.ext4}), or a name
 *                           followed by leading arguments ({@code git push --force}) that blocks only that use
 * @param workspaceOnlyPaths refuse commands that name absolute paths outside the workspace, or climb out of it
 *                           with {@code ..}
 * @param allowedPaths       absolute paths outside the workspace that commands may still name: read-only system
 *                           directories, a few devices and the sandbox's private {@code /tmp}
 */
public record SafetyPolicy(List<String> blockedCommands, boolean workspaceOnlyPaths, List<String> allowedPaths) {

    public static final List<String> DEFAULT_BLOCKED = List.of("sudo", "su", "doas", "pkexec", "mkfs*", "mount",
            "umount", "swapon", "swapoff", "shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl",
            "chroot", "nsenter", "unshare", "insmod", "rmmod", "modprobe", "iptables", "nft", "crontab");

    public static final List<String> DEFAULT_ALLOWED_PATHS = List.of("/tmp", "/usr", "/bin", "/sbin", "/lib",
            "/lib32", "/lib64", "/libx32", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin",
            "/dev/stdout", "/dev/stderr", "/dev/fd", "/dev/tty", "/proc/self");

    public SafetyPolicy {
        blockedCommands = blockedCommands == null ? List.of() : List.copyOf(blockedCommands);
        allowedPaths = allowedPaths == null ? List.of() : List.copyOf(allowedPaths);
        for (String path : allowedPaths) {
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("allowed paths must be absolute, got '" + path + "'");
            }
        }
    }

    public static SafetyPolicy defaults() {
        return new SafetyPolicy(DEFAULT_BLOCKED, true, DEFAULT_ALLOWED_PATHS);
    }

    /** No blocked commands, no path policy: the sandbox's isolation is the only defence. */
    public static SafetyPolicy off() {
        return new SafetyPolicy(List.of(), false, List.of());
    }

    /**
     * A list from configuration: blank means {@code fallback} (the key is unset), {@code none} means an empty list,
     * anything else is comma-separated entries.
     */
    public static List<String> parseList(String value, List<String> fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        if (value.strip().equalsIgnoreCase("none")) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
