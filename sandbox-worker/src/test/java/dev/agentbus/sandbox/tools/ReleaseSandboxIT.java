package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session that moved to another worker loses its sandbox here (the runner releases it on partition revoke), so
 * if it ever comes back it starts from the state in its log, not from a shell that missed what happened elsewhere.
 */
class ReleaseSandboxIT extends SandboxedToolsIT {

    @Test
    void a_released_session_starts_a_new_shell_on_its_next_call() {
        assertThat(call("shell", "command", "mkdir -p sub && cd sub && export LEFT=here").ok()).isTrue();
        assertThat(call("shell", "command", "pwd; echo $LEFT").output()).contains("/workspace/sub\nhere");

        tools.releaseSandbox(spec.userId(), spec.sessionId());

        // This spec carries no recorded state, so the new shell starts fresh: the old one is gone.
        assertThat(call("shell", "command", "pwd; echo \"[$LEFT]\"").output()).contains("/workspace\n[]");
    }

    @Test
    void releasing_a_session_without_a_sandbox_here_does_nothing() {
        tools.releaseSandbox("nobody", "no-session");
        tools.releaseSandbox(null, null);

        assertThat(call("shell", "command", "echo still").output()).contains("still");
    }
}
