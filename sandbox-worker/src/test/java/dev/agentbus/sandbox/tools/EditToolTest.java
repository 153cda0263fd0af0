package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

class EditToolTest {
    private static final String SOURCE = """
            package demo;

            class Greeter {
                String greet(String name) {
                    return "Hello, " + name;
                }

                String bye() {
                    return "Bye";
                }
            }
            """;

    @TempDir
    Path tmp;
    /** A directory of its own, so the backups (kept next to the workspace) stay inside the test's directory. */
    Path ws;

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
    }

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);

    private ToolOutcome edit(Object... keysAndValues) {
        return tools.execute("edit", args(keysAndValues), ws, null);
    }

    @Test
    void replaces_a_unique_text_and_returns_a_unified_diff_with_context() throws IOException {
        Files.writeString(ws.resolve("Greeter.java"), SOURCE);

        ToolOutcome outcome = edit("path", "Greeter.java", "old_text", "return \"Hello, \" + name;",
                "new_text", "return \"Hi, \" + name + \"!\";");

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.output()).matches("edited Greeter\\.java: replaced 1 occurrence \\(\\+1 -1 lines\\) "
                + "\\[backup: \\S+/Greeter\\.java]");
        assertThat(outcome.diff()).isEqualTo(String.join("\n",
                "--- a/Greeter.java",
                "+++ b/Greeter.java",
                "@@ -2,7 +2,7 @@",
                " ",
                " class Greeter {",
                "     String greet(String name) {",
                "-        return \"Hello, \" + name;",
                "+        return \"Hi, \" + name + \"!\";",
                "     }",
                " ",
                "     String bye() {",
                ""));
        assertThat(ws.resolve("Greeter.java")).hasContent(SOURCE.replace("\"Hello, \" + name;",
                "\"Hi, \" + name + \"!\";"));
        assertNoTemporaryFiles();
    }

    @Test
    void multi_line_replacements_show_every_added_and_removed_line() throws IOException {
        Files.writeString(ws.resolve("Greeter.java"), SOURCE);

        ToolOutcome outcome = edit("path", "Greeter.java", "old_text",
                "    String bye() {\n        return \"Bye\";\n    }\n",
                "new_text", "    String bye() {\n        return \"Bye\";\n    }\n\n    String hi() {\n        return \"Hi\";\n"
                        + "    }\n");

        assertThat(outcome.output()).contains("(+4 -0 lines) [backup: ");
        assertThat(outcome.diff()).contains("@@ -8,4 +8,8 @@\n", "+    String hi() {\n");
    }

    @Test
    void fails_clearly_when_the_text_is_not_found_and_leaves_the_file_alone() throws IOException {
        Files.writeString(ws.resolve("Greeter.java"), SOURCE);

        ToolOutcome outcome = edit("path", "Greeter.java", "old_text", "return \"Howdy\";", "new_text", "x");

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.error()).startsWith("old_text not found in Greeter.java; it must match the file exactly");
        assertThat(outcome.diff()).isNull();
        assertThat(ws.resolve("Greeter.java")).hasContent(SOURCE);
    }

    @Test
    void refuses_an_ambiguous_text_unless_replace_all_is_set() throws IOException {
        Files.writeString(ws.resolve("Greeter.java"), SOURCE);

        ToolOutcome ambiguous = edit("path", "Greeter.java", "old_text", "String", "new_text", "CharSequence");

        assertThat(ambiguous.ok()).isFalse();
        assertThat(ambiguous.error()).startsWith("old_text occurs 3 times in Greeter.java; include more surrounding");
        assertThat(ws.resolve("Greeter.java")).hasContent(SOURCE);

        ToolOutcome all = edit("path", "Greeter.java", "old_text", "String", "new_text", "CharSequence",
                "replace_all", true);

        assertThat(all.ok()).isTrue();
        assertThat(all.output()).startsWith("edited Greeter.java: replaced 3 occurrences (+2 -2 lines) [backup: ");
        assertThat(ws.resolve("Greeter.java")).hasContent(SOURCE.replace("String", "CharSequence"));
    }

    @Test
    void refuses_pointless_or_impossible_edits() throws IOException {
        Files.writeString(ws.resolve("f.txt"), "abc");
        Files.write(ws.resolve("latin1.txt"), new byte[]{'c', 'a', 'f', (byte) 0xE9});

        assertThat(edit("path", "f.txt", "old_text", "", "new_text", "x").error()).startsWith("old_text must not be empty");
        assertThat(edit("path", "f.txt", "old_text", "a", "new_text", "a").error())
                .isEqualTo("old_text and new_text are identical; nothing to change");
        assertThat(edit("path", "missing.txt", "old_text", "a", "new_text", "b").error())
                .isEqualTo("file not found: missing.txt");
        assertThat(edit("path", "latin1.txt", "old_text", "caf", "new_text", "tea").error())
                .startsWith("latin1.txt is not valid UTF-8 text");
        assertThat(edit("path", "f.txt", "old_text", "a").error()).isEqualTo("missing required argument: new_text");
    }

    @Test
    void keeps_a_missing_final_newline_and_says_so_in_the_diff() throws IOException {
        Files.writeString(ws.resolve("f.txt"), "a\nb");

        ToolOutcome outcome = edit("path", "f.txt", "old_text", "b", "new_text", "c");

        assertThat(Files.readString(ws.resolve("f.txt"))).isEqualTo("a\nc");
        assertThat(outcome.diff()).isEqualTo("--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n"
                + "\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    }

    private void assertNoTemporaryFiles() throws IOException {
        try (Stream<Path> list = Files.list(ws)) {
            assertThat(list.map(p -> p.getFileName().toString())).containsExactly("Greeter.java");
        }
    }
}
