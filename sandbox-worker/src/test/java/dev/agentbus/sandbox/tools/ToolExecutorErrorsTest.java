package dev.agentbus.sandbox.tools;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** Bad input is a failed outcome with a message, never an exception. */
class ToolExecutorErrorsTest {
    @TempDir
    Path ws;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    @Test
    void an_unknown_tool_names_the_available_ones() {
        ToolOutcome outcome = tools.execute("rm", args("path", "x"), ws, null);

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("unknown tool: rm (available: "
                + String.join(", ", ToolExecutor.TOOL_NAMES) + ")").contains("mkdir, copy, delete, shell, run_command");
        assertThat(outcome.forModel()).startsWith("error: unknown tool: rm");
        assertThat(tools.execute(null, null, ws, null).error()).startsWith("unknown tool: null");
    }

    @Test
    void missing_and_mistyped_arguments_are_named() {
        assertThat(tools.execute("read", args(), ws, null).error()).isEqualTo("missing required argument: path");
        assertThat(tools.execute("read", args("path", 5), ws, null).error())
                .isEqualTo("argument 'path' must be a string");
        assertThat(tools.execute("write", args("path", "a"), ws, null).error())
                .isEqualTo("missing required argument: content");
        assertThat(tools.execute("edit", args("path", "a", "old_text", "x", "new_text", "y", "replace_all", "yes"),
                ws, null).error()).isEqualTo("argument 'replace_all' must be true or false");
        assertThat(tools.execute("read", Json.parse("[1,2]"), ws, null).error())
                .isEqualTo("arguments must be a json object, got array".replace("json", "JSON"));
    }

    @Test
    void a_fifo_is_refused_instead_of_blocking_the_worker_forever() throws Exception {
        Path fifo = ws.resolve("pipe");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor()).isZero();

        assertThat(tools.execute("read", args("path", "pipe"), ws, null).error()).isEqualTo("not a regular file: pipe");
        assertThat(tools.execute("edit", args("path", "pipe", "old_text", "a", "new_text", "b"), ws, null).ok())
                .isFalse();
        assertThat(tools.execute("write", args("path", "pipe", "content", "x"), ws, null).error())
                .startsWith("not a regular file");
        assertThat(tools.execute("grep", args("pattern", "x"), ws, null).ok()).isTrue();
        assertThat(tools.execute("grep", args("pattern", "x", "path", "pipe"), ws, null).ok()).isTrue();
    }

    @Test
    void null_arguments_mean_none() {
        assertThat(tools.execute("ls", null, ws, null).ok()).isTrue();
        assertThat(tools.execute("read", null, ws, null).error()).isEqualTo("missing required argument: path");
    }

    @Test
    void a_missing_workspace_is_a_failure_too() {
        ToolOutcome outcome = tools.execute("ls", args(), ws.resolve("gone"), null);

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).isEqualTo("the session's workspace directory does not exist");
    }

    @Test
    void no_tool_throws_whatever_it_is_given() {
        List<JsonNode> junk = List.of(args(), Json.parse("null"), Json.parse("\"text\""), Json.parse("42"),
                args("path", "", "pattern", "", "command", "", "content", ""),
                args("path", "\u0000", "pattern", "[", "glob", "{", "start_line", -1),
                args("path", "..", "old_text", "x", "new_text", "y"),
                args("path", List.of("a"), "pattern", 3, "timeout_seconds", 1.5));
        for (String tool : ToolExecutor.TOOL_NAMES) {
            for (JsonNode arguments : junk) {
                assertThatCode(() -> {
                    ToolOutcome outcome = tools.execute(tool, arguments, ws, null);
                    assertThat(outcome).isNotNull();
                    if (!outcome.ok()) {
                        assertThat(outcome.error()).isNotBlank();
                    }
                }).as("%s %s", tool, arguments).doesNotThrowAnyException();
            }
        }
    }
}
