package dev.agentbus.sandbox.shell;

/**
 * What a finished (or killed) command produced.
 *
 * @param exitCode     the exit status of {@code /bin/sh}; meaningless when {@code timedOut}
 * @param output       stdout and stderr merged in the order written, at most the configured cap (as UTF-8 text)
 * @param omittedBytes bytes that were produced beyond the cap and thrown away (0 when nothing was cut)
 * @param timedOut     the command ran out of time and its whole process tree was killed
 */
public record ShellResult(int exitCode, String output, long omittedBytes, boolean timedOut) {
    public boolean truncated() {
        return omittedBytes > 0;
    }
}
