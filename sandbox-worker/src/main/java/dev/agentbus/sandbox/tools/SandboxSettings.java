package dev.agentbus.sandbox.tools;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits and mode of the tool executor. One instance per worker, read from configuration by the service.
 *
 * @param shellTimeoutDefault time a shell command gets when the model does not ask for one
 * @param shellTimeoutMax     the most a model may ask for; requests are clamped to [1 s, this]
 * @param outputCapBytes      the most output text (and diff text) a tool call returns; more is cut with a marker,
 *                            because every byte goes into the event log and into the model's context
 * @param maxFileBytes        the largest file {@code read}/{@code edit} will load and {@code write} will write;
 *                            {@code grep} skips larger files
 * @param unsafeHost          run shell commands directly on the host without bubblewrap (development only)
 * @param bwrapPath           the bubblewrap executable: an absolute path, or a name looked up on PATH
 */
public record SandboxSettings(Duration shellTimeoutDefault, Duration shellTimeoutMax, int outputCapBytes,
                              long maxFileBytes, boolean unsafeHost, String bwrapPath) {

    public static final Duration MIN_SHELL_TIMEOUT = Duration.ofSeconds(1);

    public SandboxSettings {
        Objects.requireNonNull(shellTimeoutDefault, "shellTimeoutDefault");
        Objects.requireNonNull(shellTimeoutMax, "shellTimeoutMax");
        Objects.requireNonNull(bwrapPath, "bwrapPath");
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
    }

    /** 30 s default / 120 s max, 64 KiB output, 1 MiB files, sandboxed, {@code bwrap} from PATH. */
    public static SandboxSettings defaults() {
        return new SandboxSettings(Duration.ofSeconds(30), Duration.ofSeconds(120), 64 * 1024, 1024 * 1024,
                false, "bwrap");
    }

    public SandboxSettings withUnsafeHost(boolean unsafe) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafe,
                bwrapPath);
    }

    public SandboxSettings withBwrapPath(String path) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, maxFileBytes, unsafeHost,
                path);
    }

    public SandboxSettings withOutputCapBytes(int cap) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, cap, maxFileBytes, unsafeHost, bwrapPath);
    }

    public SandboxSettings withMaxFileBytes(long max) {
        return new SandboxSettings(shellTimeoutDefault, shellTimeoutMax, outputCapBytes, max, unsafeHost, bwrapPath);
    }
}
