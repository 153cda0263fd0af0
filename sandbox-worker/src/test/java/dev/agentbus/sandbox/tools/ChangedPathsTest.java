package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The paths a file tool reports it changed, which are all the workspace checkpoint after it looks at: exactly the
 * real path it wrote, made or deleted. A tool that cannot be sure (it failed, or it runs a program) reports none,
 * and the checkpoint then looks at the whole workspace.
 */
class ChangedPathsTest {
    @TempDir
    Path tmp;
    Path ws;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
    }

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    @Test
    void each_file_tool_reports_the_real_path_it_changed() throws IOException {
        Files.createDirectories(ws.resolve("src"));
        Files.createSymbolicLink(ws.resolve("link"), Path.of("src"));

        assertThat(run("write", "path", "link/a.txt", "content", "one\n").refusal())
                .as("a path through a link is refused, even one that stays inside")
                .startsWith("path goes through a symbolic link: link");
        assertThat(run("write", "path", "src/a.txt", "content", "one\n").changedPaths())
                .containsExactly(ws.resolve("src/a.txt"));
        assertThat(run("edit", "path", "src/a.txt", "old_text", "one", "new_text", "two").changedPaths())
                .containsExactly(ws.resolve("src/a.txt"));
        assertThat(run("copy", "from", "src/a.txt", "to", "b/c.txt").changedPaths())
                .containsExactly(ws.resolve("b/c.txt"));
        assertThat(run("upload", "path", "up.bin", "content_base64",
                Base64.getEncoder().encodeToString("x".getBytes(StandardCharsets.UTF_8))).changedPaths())
                .containsExactly(ws.resolve("up.bin"));
        assertThat(run("mkdir", "path", "made/deep").changedPaths()).containsExactly(ws.resolve("made/deep"));
        assertThat(run("mkdir", "path", "made/deep").changedPaths()).as("it existed: nothing changed").isEmpty();
        assertThat(run("delete", "path", "link").changedPaths()).as("the link itself, not its target")
                .containsExactly(ws.resolve("link"));
        assertThat(run("delete", "path", "b", "recursive", true).changedPaths()).containsExactly(ws.resolve("b"));
    }

    @Test
    void a_failed_call_and_a_tool_that_runs_programs_report_nothing_so_everything_is_looked_at() {
        assertThat(run("edit", "path", "missing.txt", "old_text", "a", "new_text", "b").changedPaths()).isNull();
        assertThat(run("write", "path", "../outside.txt", "content", "x").changedPaths()).isNull();
        assertThat(run("shell", "command", "true").changedPaths()).isNull();
        assertThat(run("read", "path", "nothing.txt").changedPaths()).isNull();
    }
}
