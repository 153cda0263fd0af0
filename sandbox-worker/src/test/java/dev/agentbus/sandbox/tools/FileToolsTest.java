package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** read, write, ls and mkdir through the facade. */
class FileToolsTest {
    @TempDir
    Path tmp;
    /** A directory of its own, so the backups (kept next to the workspace) stay inside the test's directory. */
    Path ws;

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
    }

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    // ---- read ----------------------------------------------------------------------------------------------

    @Test
    void read_shows_numbered_lines_and_the_total() throws IOException {
        Files.writeString(ws.resolve("f.txt"), "alpha\nbeta\ngamma\n");

        ToolOutcome outcome = run("read", "path", "f.txt");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("f.txt: 3 lines\n     1\talpha\n     2\tbeta\n     3\tgamma\n");
        assertThat(outcome.error()).isNull();
    }

    @Test
    void read_returns_an_inclusive_one_based_line_range() throws IOException {
        Files.writeString(ws.resolve("ten.txt"), numberedLines(10));

        ToolOutcome outcome = run("read", "path", "ten.txt", "start_line", 3, "end_line", 5);

        assertThat(outcome.output()).isEqualTo("ten.txt: lines 3-5 of 10\n     3\tline 3\n     4\tline 4\n"
                + "     5\tline 5\n");
    }

    @Test
    void read_clamps_an_end_past_the_file_but_refuses_a_start_past_it() throws IOException {
        Files.writeString(ws.resolve("ten.txt"), numberedLines(10));

        assertThat(run("read", "path", "ten.txt", "start_line", "9", "end_line", 99).output())
                .startsWith("ten.txt: lines 9-10 of 10\n");
        ToolOutcome past = run("read", "path", "ten.txt", "start_line", 11);
        assertThat(past.ok()).isFalse();
        assertThat(past.error()).isEqualTo("start_line 11 is past the end of ten.txt (10 lines)");
        assertThat(run("read", "path", "ten.txt", "start_line", 5, "end_line", 4).error())
                .isEqualTo("end_line (4) must not be before start_line (5)");
    }

    @Test
    void read_of_a_missing_binary_or_too_large_file_fails_clearly() throws IOException {
        Files.write(ws.resolve("img.bin"), new byte[]{1, 2, 0, 3});
        Files.writeString(ws.resolve("big.txt"), "x".repeat(3000));
        ToolExecutor small = new ToolExecutor(SandboxSettings.defaults().withMaxFileBytes(2000), NoSandboxes.INSTANCE);

        assertThat(run("read", "path", "nope.txt").error()).isEqualTo("file not found: nope.txt");
        assertThat(run("read", "path", "img.bin").error()).startsWith("binary file, not shown: img.bin");
        assertThat(small.execute("read", args("path", "big.txt"), ws, null).error())
                .startsWith("file is too large: big.txt is 3000 bytes, the limit is 2000");
        assertThat(run("read", "path", ".").error()).startsWith("is a directory, not a file: .");
    }

    @Test
    void read_stops_at_a_whole_line_when_the_output_limit_is_reached_and_says_where_to_go_on() throws IOException {
        Files.writeString(ws.resolve("long.txt"), numberedLines(2000));
        ToolExecutor small = new ToolExecutor(SandboxSettings.defaults().withOutputCapBytes(4096), NoSandboxes.INSTANCE);

        ToolOutcome outcome = small.execute("read", args("path", "long.txt"), ws, null);

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).matches("(?s)long\\.txt: lines 1-(\\d+) of 2000\n.*"
                + "\\[stopped at line \\1 to stay under the output limit; continue with start_line=\\d+]\n");
        assertThat(outcome.output().getBytes().length).isLessThanOrEqualTo(4096);
    }

    // ---- write ---------------------------------------------------------------------------------------------

    @Test
    void write_creates_parent_directories_and_reports_a_diff_from_nothing() {
        ToolOutcome outcome = run("write", "path", "src/main/App.java", "content", "class App {}\n");

        assertThat(outcome.ok()).isTrue();
        assertThat(ws.resolve("src/main/App.java")).hasContent("class App {}\n");
        assertThat(outcome.output()).isEqualTo("created src/main/App.java (13 bytes, 1 line)");
        assertThat(outcome.diff()).isEqualTo("--- /dev/null\n+++ b/src/main/App.java\n@@ -0,0 +1 @@\n+class App {}\n");
    }

    @Test
    void write_overwrites_atomically_leaving_no_temporary_files() throws IOException {
        Files.writeString(ws.resolve("f.txt"), "one\ntwo\n");

        ToolOutcome outcome = run("write", "path", "f.txt", "content", "one\n2\n");

        assertThat(outcome.output()).startsWith("overwrote f.txt");
        assertThat(outcome.diff()).isEqualTo("--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n");
        assertThat(ws.resolve("f.txt")).hasContent("one\n2\n");
        assertThat(allFiles()).containsExactly("f.txt");
    }

    @Test
    void write_refuses_directories_and_oversized_content() throws IOException {
        Files.createDirectories(ws.resolve("dir"));
        ToolExecutor small = new ToolExecutor(SandboxSettings.defaults().withMaxFileBytes(10), NoSandboxes.INSTANCE);

        assertThat(run("write", "path", "dir", "content", "x").error())
                .isEqualTo("is a directory, cannot write a file there: dir");
        assertThat(small.execute("write", args("path", "f", "content", "12345678901"), ws, null).error())
                .isEqualTo("content is 11 bytes, more than the file limit of 10 bytes");
        assertThat(ws.resolve("f")).doesNotExist();
    }

    @Test
    void write_accepts_empty_content() {
        assertThat(run("write", "path", "empty.txt", "content", "").ok()).isTrue();
        assertThat(ws.resolve("empty.txt")).isEmptyFile();
    }

    // ---- ls ------------------------------------------------------------------------------------------------

    @Test
    void ls_lists_sorted_entries_with_a_slash_after_directories() throws IOException {
        Files.createDirectories(ws.resolve("src"));
        Files.writeString(ws.resolve("b.txt"), "b");
        Files.writeString(ws.resolve(".env"), "x");
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));

        assertThat(run("ls").output()).isEqualTo(".env\na.txt\nb.txt\nlink -> a.txt\nsrc/\n");
        assertThat(run("ls", "path", "src").output()).isEqualTo("src: empty directory");
        assertThat(run("ls", "path", "a.txt").output()).isEqualTo("a.txt (file, 1 bytes)");
        assertThat(run("ls", "path", "missing").error()).isEqualTo("no such file or directory: missing");
    }

    // ---- mkdir ---------------------------------------------------------------------------------------------

    @Test
    void mkdir_creates_parents_and_accepts_an_existing_directory() throws IOException {
        assertThat(run("mkdir", "path", "a/b/c").output()).isEqualTo("created directory a/b/c/");
        assertThat(ws.resolve("a/b/c")).isDirectory();
        assertThat(run("mkdir", "path", "a/b").output()).isEqualTo("directory already exists: a/b/");

        Files.writeString(ws.resolve("file"), "x");
        assertThat(run("mkdir", "path", "file").error()).isEqualTo("exists and is not a directory: file");
        assertThat(run("mkdir", "path", "file/sub").ok()).isFalse();
    }

    private List<String> allFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(ws)) {
            return walk.filter(Files::isRegularFile).map(p -> ws.relativize(p).toString()).sorted().toList();
        }
    }

    static String numberedLines(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }
}
