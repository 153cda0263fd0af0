package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;

import java.nio.file.Path;

/**
 * What a sandbox is for: whose it is, the host directory that becomes its {@code /workspace}, and the shell state
 * to start from when it has to be built afresh (the last one recorded in the session's log; null for a new one).
 */
public record SandboxSpec(String userId, String sessionId, Path workspace, ShellState restore) {
}
