package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;

/**
 * What one command did.
 *
 * @param exitCode     its exit code; -1 when it timed out
 * @param output       stdout and stderr interleaved, capped
 * @param omittedBytes how much output was cut at the cap (0 when none)
 * @param timedOut     it ran past its time-out and was killed with everything it started
 * @param shell        the shell's state after it (for {@link Sandbox#exec}, the unchanged state)
 */
public record CommandResult(int exitCode, String output, long omittedBytes, boolean timedOut, ShellState shell) {
    public boolean truncated() {
        return omittedBytes > 0;
    }
}
