package dev.agentbus.sandbox.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.workspace.SymlinkRacer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, failure 1: a program in the sandbox swaps workspace paths for links to a host directory while the worker
 * (root on the host) runs a file tool or a file route on them ({@code GET/PUT …/files/…} are {@code download} and
 * {@code upload}). Every tool that touches files runs a fixed number of times against the racing paths; none may
 * read a host file (the secret never appears in an output, a diff or a backup) or create, change or delete one.
 */
class SymlinkRaceThroughToolsTest {
    /** Runs per tool: enough that the old check-then-open code lost the race on every tool it covered. */
    private static final int ITERATIONS = 400;

    @TempDir
    Path tmp;

    static Stream<Arguments> fileTools() {
        return Stream.of(
                call("read", "path", "dir/secret.txt"),
                call("read", "path", "file.txt"),
                call("write", "path", "dir/new.txt", "content", "new\n"),
                call("write", "path", "dir/secret.txt", "content", "overwritten\n"),
                call("write", "path", "file.txt", "content", "overwritten\n"),
                call("edit", "path", "dir/secret.txt", "old_text", "\n", "new_text", "!\n"),
                call("edit", "path", "file.txt", "old_text", "\n", "new_text", "!\n"),
                call("ls", "path", "dir"),
                call("ls", "path", "dir/tree"),
                call("glob", "pattern", "**", "path", "dir"),
                call("glob", "pattern", "**.txt"),
                call("grep", "pattern", ".", "path", "dir"),
                call("grep", "pattern", ".", "path", "file.txt"),
                call("grep", "pattern", "."),
                call("mkdir", "path", "dir/made/deeper"),
                call("copy", "from", "dir/secret.txt", "to", "copied.txt", "overwrite", true),
                call("copy", "from", "file.txt", "to", "copied.txt", "overwrite", true),
                call("copy", "from", "source.txt", "to", "dir/copied.txt", "overwrite", true),
                call("copy", "from", "source.txt", "to", "dir/secret.txt", "overwrite", true),
                call("delete", "path", "dir/victim.txt"),
                call("delete", "path", "dir/tree", "recursive", true),
                call("delete", "path", "file.txt"),
                call("download", "path", "dir/secret.txt"),
                call("download", "path", "file.txt"),
                call("upload", "path", "dir/uploaded.bin", "content_base64", "dXBsb2FkZWQ="),
                call("upload", "path", "dir/secret.txt", "content_base64", "dXBsb2FkZWQ="),
                call("upload", "path", "file.txt", "content_base64", "dXBsb2FkZWQ="));
    }

    private static Arguments call(String tool, Object... keysAndValues) {
        return Arguments.of(tool + " " + args(keysAndValues), tool, args(keysAndValues));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fileTools")
    void a_path_swapped_for_a_link_while_a_tool_runs_never_reaches_the_host(String name, String tool, JsonNode args)
            throws Exception {
        Path workspace = tmp.resolve("alice").resolve("s1");
        ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults(), NoSandboxes.INSTANCE);
        SandboxSpec spec = new SandboxSpec("alice", "s1", workspace, null);
        try (SymlinkRacer racer = new SymlinkRacer(workspace, tmp.resolve("outside"))) {
            Files.writeString(workspace.resolve("source.txt"), "source\n");
            for (int i = 0; i < ITERATIONS; i++) {
                ToolOutcome outcome = tools.execute(tool, args, spec, true, null);
                SymlinkRacer.assertNoSecret(name, shown(outcome));
            }
            assertThat(racer.swaps()).as("the racer ran").isPositive();
            racer.assertOutsideUntouched();
        }
        // A backup of a host file would be a copy of it in the worker's keeping.
        for (String file : everyFile(tmp.resolve("alice"))) {
            SymlinkRacer.assertNoSecret("a backup or workspace file", file);
        }
    }

    /** Everything the call hands back; a download's base64 decoded. */
    private static String shown(ToolOutcome outcome) {
        String output = outcome.output() == null ? "" : outcome.output();
        if (output.startsWith("sha256:")) {
            output += new String(Base64.getDecoder().decode(output.substring(output.indexOf('\n') + 1).strip()),
                    StandardCharsets.ISO_8859_1);
        }
        return output + "\n" + outcome.error() + "\n" + outcome.diff() + "\n" + outcome.refusal();
    }

    private static List<String> everyFile(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).map(p -> {
                try {
                    return p + ": " + Files.readString(p, StandardCharsets.ISO_8859_1);
                } catch (IOException e) {
                    return p + ": unreadable";
                }
            }).toList();
        }
    }
}
