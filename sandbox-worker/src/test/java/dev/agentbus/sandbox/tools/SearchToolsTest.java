package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** glob and grep. */
class SearchToolsTest {
    @TempDir
    Path ws;

    @TempDir
    Path outside;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    @BeforeEach
    void tree() throws IOException {
        write("Main.java", "class Main {\n    // TODO start\n}\n");
        write("src/app/App.java", "class App {\n    void run() {} // TODO run\n}\n");
        write("src/app/util/Strings.java", "final class Strings {}\n");
        write("docs/guide.md", "# Guide\nTODO write the guide\n");
        write(".git/objects/ab/cdef", "TODO inside git");
        Files.write(ws.resolve("src/app/logo.png"), new byte[]{(byte) 0x89, 'P', 'N', 'G', 0, 0, 'T', 'O', 'D', 'O'});
    }

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    @Test
    void glob_matches_workspace_relative_paths_sorted_and_star_star_includes_the_top_level() {
        ToolOutcome outcome = run("glob", "pattern", "**/*.java");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("Main.java\nsrc/app/App.java\nsrc/app/util/Strings.java\n");
    }

    @Test
    void glob_under_a_path_matches_relative_to_it_and_to_the_workspace() {
        assertThat(run("glob", "pattern", "*.java", "path", "src/app").output()).isEqualTo("src/app/App.java\n");
        assertThat(run("glob", "pattern", "src/*/*.java").output()).isEqualTo("src/app/App.java\n");
        assertThat(run("glob", "pattern", "*.md").output()).isEqualTo("no files match *.md");
        assertThat(run("glob", "pattern", "**/cdef").output()).startsWith("no files match");
    }

    @Test
    void glob_caps_the_number_of_results_and_says_how_many_more() throws IOException {
        for (int i = 0; i < 620; i++) {
            write("many/f" + String.format("%03d", i) + ".txt", "");
        }

        ToolOutcome outcome = run("glob", "pattern", "many/*.txt");

        assertThat(outcome.output().lines().filter(l -> l.startsWith("many/"))).hasSize(GlobTool.MAX_RESULTS);
        assertThat(outcome.output()).startsWith("many/f000.txt\n")
                .endsWith("[120 more matches not shown (620 in total); use a narrower pattern or path]\n");
    }

    @Test
    void glob_reports_invalid_patterns_and_paths() {
        assertThat(run("glob", "pattern", "src/[a").error()).startsWith("invalid glob pattern: src/[a");
        assertThat(run("glob", "pattern", "*", "path", "Main.java").error()).isEqualTo("not a directory: Main.java");
    }

    @Test
    void grep_prints_file_line_text_skipping_binary_files_and_git() {
        ToolOutcome outcome = run("grep", "pattern", "TODO \\w+");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).isEqualTo("""
                Main.java:2:     // TODO start
                docs/guide.md:2: TODO write the guide
                src/app/App.java:2:     void run() {} // TODO run
                """);
    }

    @Test
    void grep_filters_by_glob_and_path() {
        assertThat(run("grep", "pattern", "TODO", "glob", "*.java").output())
                .isEqualTo("Main.java:2:     // TODO start\nsrc/app/App.java:2:     void run() {} // TODO run\n");
        assertThat(run("grep", "pattern", "class", "path", "src", "glob", "app/util/*.java").output())
                .isEqualTo("src/app/util/Strings.java:1: final class Strings {}\n");
        assertThat(run("grep", "pattern", "Guide", "path", "docs/guide.md").output())
                .isEqualTo("docs/guide.md:1: # Guide\n");
    }

    @Test
    void grep_says_when_nothing_matches_and_rejects_bad_regexes() {
        assertThat(run("grep", "pattern", "FIXME").output()).isEqualTo("no matches for FIXME\n");
        assertThat(run("grep", "pattern", "foo(").error()).startsWith("invalid regular expression: Unclosed group");
        assertThat(run("grep", "pattern", "x", "path", "nope").error()).isEqualTo("no such file or directory: nope");
    }

    @Test
    void grep_caps_matches_and_shortens_long_lines() throws IOException {
        write("big.txt", "match " + "x".repeat(1000) + "\n" + "match\n".repeat(400));

        ToolOutcome outcome = run("grep", "pattern", "match", "path", "big.txt");

        assertThat(outcome.output().lines().filter(l -> l.startsWith("big.txt:"))).hasSize(GrepTool.MAX_MATCHES);
        assertThat(outcome.output()).contains("… [706 more characters]")
                .contains("[stopped after 250 matches; narrow the pattern, path or glob]");
    }

    @Test
    void grep_does_not_follow_links_to_files_outside_the_workspace() throws IOException {
        Files.writeString(outside.resolve("secret.txt"), "TOP SECRET\n");
        Files.createSymbolicLink(ws.resolve("innocent.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("outdir"), outside);

        assertThat(run("grep", "pattern", "SECRET").output()).isEqualTo("no matches for SECRET\n");
        assertThat(run("grep", "pattern", "SECRET", "path", "innocent.txt").ok()).isFalse();
        assertThat(run("glob", "pattern", "**/secret.txt").output()).startsWith("no files match");
    }

    private void write(String relative, String content) throws IOException {
        Path file = ws.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
