package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.events.session.ShellState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code agentbus.sandbox.scope=user}: one Docker container per user, a shell per session in it. */
class UserScopeIT {
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @TempDir
    Path root;

    private SandboxSpec spec(String user, String session) throws Exception {
        return new SandboxSpec(user, session, Files.createDirectories(root.resolve(user).resolve(session)), null);
    }

    private static String run(Sandbox sandbox, String command) throws Exception {
        return sandbox.shell(command, TEN_SECONDS, null).output();
    }

    @Test
    void the_sessions_of_one_user_share_a_container_each_in_its_own_workspace() throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(BackendsUnderTest.DOCKER,
                c -> c.withScope(SandboxConfig.Scope.USER))) {
            SandboxSpec first = spec("uma", "one");
            SandboxSpec second = spec("uma", "two");
            Sandbox a = sandboxes.acquire(first);
            Sandbox b = sandboxes.acquire(second);

            CommandResult made = a.shell("echo shared > /tmp/note; mkdir -p src && cd src && echo mine > f.txt; "
                    + "export ONLY_A=1", TEN_SECONDS, null);

            assertThat(a).isNotSameAs(b);
            assertThat(made.shell()).isEqualTo(new ShellState("/workspace/src", Map.of("ONLY_A", "1")));
            assertThat(first.workspace().resolve("src/f.txt")).hasContent("mine");
            assertThat(run(b, "pwd; cat /tmp/note; echo \"[${ONLY_A-}]\"; ls"))
                    .isEqualTo("/workspace/two\nshared\n[]\n");
            assertThat(run(a, "pwd")).isEqualTo("/workspace/one/src\n");
        }
    }

    @Test
    void different_users_never_share_a_container_and_one_session_closing_leaves_the_other_working()
            throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(BackendsUnderTest.DOCKER,
                c -> c.withScope(SandboxConfig.Scope.USER))) {
            Sandbox victor = sandboxes.acquire(spec("victor", "s"));
            Sandbox wendy = sandboxes.acquire(spec("wendy", "s"));
            SandboxSpec wendyTwo = spec("wendy", "t");
            Sandbox wendy2 = sandboxes.acquire(wendyTwo);
            run(victor, "echo victor > /tmp/who");

            wendy.close();

            assertThat(run(wendy2, "cat /tmp/who 2>&1; pwd")).contains("No such file").endsWith("/workspace/t\n");
            assertThat(run(victor, "cat /tmp/who")).isEqualTo("victor\n");
        }
    }
}
