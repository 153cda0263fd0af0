package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.commands.CommandRules;
import dev.agentbus.sandbox.safety.SafetyPolicy;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits and mode of the tool executor. One instance per worker, read from configuration by the service
 * ({@code agentbus.sandbox.*}, see docs/tools.md for every key).
 *
 * @param shellTimeoutDefault time a shell command gets when the model does not ask for one
 * @param shellTimeoutMax     the most a model may ask for; requests are clamped to [1 s, this]
 * @param outputCapBytes      the most output text (and diff text) a tool call returns; more is cut with a marker,
 *                            because every byte goes into the event log and into the model's context
 * @param maxFileBytes        the largest file {@code read}/{@code edit}/{@code copy} will load and {@code write}
 *                            will write; {@code grep} skips larger files
 * @param unsafeHost          run shell commands directly on the host without bubblewrap (development only)
 * @param bwrapPath           the bubblewrap executable: an absolute path, or a name looked up on PATH
 * @param safety              the command safety layer: blocked commands and the workspace-only path policy
 * @param commands            the allow and deny lists of the structured command mode ({@code run_command})
 * @param transferMaxBytes    the largest file a person may upload or download. Both travel inside one Kafka record
 *                            as base64 (4/3 of the size), and records are at most 1 MiB, so at most 700 KiB
 * @param backupsKept         how many backups of edited or deleted files are kept per session (oldest go first)
 * @param backupMaxBytes      the most one backup may hold; a recursive delete of a larger tree is refused
 */
public record SandboxSettings(Duration shellTimeoutDefault, Duration shellTimeoutMax, int outputCapBytes,
                              long maxFileBytes, boolean unsafeHost, String bwrapPath, SafetyPolicy safety,
                              CommandRules commands, long transferMaxBytes, int backupsKept, long backupMaxBytes) {

    public static final Duration MIN_SHELL_TIMEOUT = Duration.ofSeconds(1);
    /** 512 KiB: 683 KiB as base64, which leaves room for the envelope in a 1 MiB Kafka record. */
    public static final long DEFAULT_TRANSFER_MAX_BYTES = 512 * 1024;
    public static final long TRANSFER_LIMIT_BYTES = 700 * 1024;

    public SandboxSettings {
        Objects.requireNonNull(shellTimeoutDefault, "shellTimeoutDefault");
        Objects.requireNonNull(shellTimeoutMax, "shellTimeoutMax");
        Objects.requireNonNull(bwrapPath, "bwrapPath");
        safety = safety == null ? SafetyPolicy.defaults() : safety;
        commands = commands == null ? CommandRules.defaults() : commands;
        if (shellTimeoutMax.compareTo(MIN_SHELL_TIMEOUT) < 0
                || shellTimeoutDefault.compareTo(MIN_SHELL_TIMEOUT) < 0
                || shellTimeoutDefault.compareTo(shellTimeoutMax) > 0) {
            throw new IllegalArgumentException("need 1 s <= shellTimeoutDefault <= shellTimeoutMax, got "
                    + shellTimeoutDefault + " and " + shellTimeoutMax);
        }
        if (outputCapBytes < 1024) {
            throw new IllegalArgumentException("outputCapBytes must be at least 1024, got " + outputCapBytes);
        }
        if (maxFileBytes <= 0) {
            throw new IllegalArgumentException("maxFileBytes must be positive, got " + maxFileBytes);
        }
        if (transferMaxBytes <= 0 || transferMaxBytes > TRANSFER_LIMIT_BYTES) {
            throw new IllegalArgumentException("transferMaxBytes must be between 1 and " + TRANSFER_LIMIT_BYTES
                    + " (it travels base64-encoded in one Kafka record of at most 1 MiB), got " + transferMaxBytes);
        }
        if (backupsKept < 1) {
            throw new IllegalArgumentException("backupsKept must be at least 1, got " + backupsKept);
        }
        if (backupMaxBytes < maxFileBytes) {
            throw new IllegalArgumentException("backupMaxBytes must be at least maxFileBytes (" + maxFileBytes
                    + "), got " + backupMaxBytes);
        }
    }

    /** The settings before the safety layer existed; the rest gets its defaults. */
    public SandboxSettings(Duration shellTimeoutDefault, Duration shellTimeoutMax, int outputCapBytes,
                           long maxFileBytes, boolean unsafeHost, String bwrapPath) {
        this(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost, bwrapPath,
                SafetyPolicy.defaults(), CommandRules.defaults(), DEFAULT_TRANSFER_MAX_BYTES, 100,
                Math.max(64L * 1024 * 1024, maxFileBytes));
    }

    /**
     * 30 s default / 120 s max, 64 KiB output, 1 MiB files, sandboxed, {@code bwrap} from PATH, the default
     * blocked commands and path policy, 512 KiB transfers, 100 backups of at most 64 MiB.
     */
    public static SandboxSettings defaults() {
        return new SandboxSettings(Duration.ofSeconds(30), Duration.ofSeconds(120), 64 * 1024, 1024 * 1024,
                false, "bwrap");
    }

    /**
     * These settings with the safety layer, structured mode, transfer and backup keys as read from configuration
     * (the lists as comma-separated text: blank means the default, {@code none} an empty list). See docs/tools.md.
     */
    public SandboxSettings withConfiguration(String blockedCommands, boolean workspaceOnlyPaths, String allowedPaths,
                                             String commandsAllow, String commandsDeny, long transferMax,
                                             int backups, long backupMax) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                bwrapPath,
                new SafetyPolicy(SafetyPolicy.parseList(blockedCommands, SafetyPolicy.DEFAULT_BLOCKED),
                        workspaceOnlyPaths, SafetyPolicy.parseList(allowedPaths, SafetyPolicy.DEFAULT_ALLOWED_PATHS)),
                new CommandRules(SafetyPolicy.parseList(commandsAllow, java.util.List.of()),
                        SafetyPolicy.parseList(commandsDeny, CommandRules.DEFAULT_DENY)),
                transferMax, backups, backupMax);
    }

    public SandboxSettings withUnsafeHost(boolean unsafe) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafe,
                bwrapPath, safety, commands, transferMaxBytes, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withBwrapPath(String path) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                path, safety, commands, transferMaxBytes, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withOutputCapBytes(int cap) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, cap, maxFileBytes, unsafeHost, bwrapPath,
                safety, commands, transferMaxBytes, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withMaxFileBytes(long max) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, max, unsafeHost, bwrapPath,
                safety, commands, transferMaxBytes, backupsKept, Math.max(backupMaxBytes, max));
    }

    public SandboxSettings withSafety(SafetyPolicy policy) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                bwrapPath, policy, commands, transferMaxBytes, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withCommands(CommandRules rules) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                bwrapPath, safety, rules, transferMaxBytes, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withTransferMaxBytes(long max) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                bwrapPath, safety, commands, max, backupsKept, backupMaxBytes);
    }

    public SandboxSettings withBackups(int kept, long maxBytes) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                bwrapPath, safety, commands, transferMaxBytes, kept, maxBytes);
    }
}
