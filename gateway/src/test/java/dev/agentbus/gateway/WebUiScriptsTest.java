package dev.agentbus.gateway;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The web UI's own unit tests (src/test/js, plain ES modules run by {@code node --test}: the chat's fold, the catalogue
 * of session events it follows or ignores, and the other pure modules), run in the fast tier so a broken fold fails
 * {@code ./mvnw -B test}. Without node a local build skips them with a message; CI (CI=true) has node and fails instead.
 */
class WebUiScriptsTest {
    private static final Path SCRIPTS = Path.of("src", "test", "js");

    @Test
    void the_web_ui_node_tests_pass() throws IOException, InterruptedException {
        Optional<Path> node = onPath("node");
        if (!"true".equals(System.getenv("CI"))) {
            assumeTrue(node.isPresent(), "node is not on the PATH: the web UI's tests in gateway/src/test/js are "
                    + "skipped (install Node.js 20 or later to run them; CI runs them)");
        }
        assertThat(node).as("node on the PATH (CI must run the web UI's tests)").isPresent();
        List<String> files;
        try (Stream<Path> found = Files.list(SCRIPTS)) {
            files = found.map(Path::toString).filter(p -> p.endsWith(".test.js")).sorted().toList();
        }
        assertThat(files).as("the web UI's tests in %s", SCRIPTS.toAbsolutePath()).isNotEmpty();

        List<String> command = new ArrayList<>(List.of(node.get().toString(), "--test"));
        command.addAll(files);
        Path output = Files.createTempFile("web-ui-tests", ".txt");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            boolean ended = process.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                process.destroyForcibly();
            }
            String report = Files.readString(output, StandardCharsets.UTF_8);
            System.out.println(report);
            assertThat(ended).as("node --test ended within 5 minutes:%n%s", report).isTrue();
            assertThat(process.exitValue()).as("node --test %s failed:%n%s", files, report).isZero();
            assertThat(report).as("node ran the tests").containsPattern("# pass [1-9]");
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty()).map(d -> Path.of(d, program))
                .filter(Files::isExecutable).findFirst();
    }
}
