package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every file tool goes through the path guard; these pin that for the tools that write and list. A path escape is
 * the workspace-only path policy of the safety layer, so it is a recorded refusal.
 */
class PathEscapeThroughToolsTest {
    @TempDir
    Path tmp;
    Path ws;

    @TempDir
    Path outside;

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
    }

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    @Test
    void dot_dot_and_absolute_paths_are_refused_by_every_file_tool() {
        assertThat(run("read", "path", "../x").refusal()).isEqualTo("path escapes the workspace: ../x");
        assertThat(run("write", "path", "../x", "content", "x").error())
                .isEqualTo("refused: path escapes the workspace: ../x");
        assertThat(run("edit", "path", "../x", "old_text", "a", "new_text", "b").ok()).isFalse();
        assertThat(run("ls", "path", "..").ok()).isFalse();
        assertThat(run("glob", "pattern", "*", "path", "../").ok()).isFalse();
        assertThat(run("grep", "pattern", "root", "path", "/etc").refusal())
                .startsWith("absolute paths are not allowed");
        assertThat(run("copy", "from", "/etc/passwd", "to", "p").refusal())
                .startsWith("absolute paths are not allowed");
        assertThat(run("delete", "path", "../x").refusal()).isEqualTo("path escapes the workspace: ../x");
        assertThat(run("download", "path", "/etc/passwd").refusal()).startsWith("absolute paths are not allowed");
        assertThat(run("upload", "path", "../x", "content_base64", "eA==").refusal())
                .isEqualTo("path escapes the workspace: ../x");
        assertThat(run("mkdir", "path", "/tmp/agentbus-" + UUID.randomUUID()).ok()).isFalse();
        // Where "../x" would have landed: beside the workspace, in the test's own directory (not /tmp, which any
        // other program on the machine may use).
        assertThat(ws.resolveSibling("x")).doesNotExist();
    }

    @Test
    void writing_through_a_link_to_etc_is_refused_and_writes_nothing() {
        String name = "agentbus-" + UUID.randomUUID();
        try {
            Files.createSymbolicLink(ws.resolve("etc"), Path.of("/etc"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        ToolOutcome outcome = run("write", "path", "etc/" + name, "content", "pwned");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.refusal()).startsWith("path goes through a symbolic link: etc");
        assertThat(Path.of("/etc", name)).doesNotExist();
        assertThat(run("read", "path", "etc/passwd").ok()).isFalse();
        assertThat(run("ls", "path", "etc").ok()).isFalse();
    }

    @Test
    void a_symlinked_directory_cannot_be_used_to_write_or_make_directories_outside() throws IOException {
        Files.createSymbolicLink(ws.resolve("out"), outside);

        assertThat(run("write", "path", "out/f.txt", "content", "x").ok()).isFalse();
        assertThat(run("mkdir", "path", "out/d").ok()).isFalse();
        assertThat(run("edit", "path", "out/f.txt", "old_text", "a", "new_text", "b").ok()).isFalse();
        try (var list = Files.list(outside)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void errors_never_reveal_where_the_workspace_lives_on_the_host() throws IOException {
        Files.writeString(ws.resolve("file"), "x");

        ToolOutcome outcome = run("write", "path", "file/child.txt", "content", "x");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).doesNotContain(ws.toString()).contains("file");
    }
}
