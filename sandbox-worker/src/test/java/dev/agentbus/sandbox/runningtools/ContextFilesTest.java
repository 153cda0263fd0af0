package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.session.ContextFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which context files of a workspace reach the orchestrator, how much of them, and when. */
class ContextFilesTest {
    @TempDir
    Path workspace;

    private final ContextFiles files = new ContextFiles(300);

    @Test
    void the_soul_and_the_project_files_are_read_in_prompt_order_and_other_files_are_not() throws IOException {
        Files.writeString(workspace.resolve("AGENTS.md"), "Run mvn test before committing.");
        Files.writeString(workspace.resolve(".soul.md"), "You are terse.");
        Files.writeString(workspace.resolve("README.md"), "not a context file");

        assertThat(files.read(workspace)).containsExactly(new ContextFile(".soul.md", "You are terse.", false),
                new ContextFile("AGENTS.md", "Run mvn test before committing.", false));
    }

    @Test
    void a_long_file_is_cut_at_the_limit_and_says_so() throws IOException {
        Files.writeString(workspace.resolve(".agentbus.md"), "x".repeat(1000));

        ContextFile read = files.read(workspace).getFirst();
        assertThat(read.content()).hasSize(300);
        assertThat(read.truncated()).isTrue();
    }

    @Test
    void secrets_in_a_context_file_are_masked_before_they_reach_the_log() throws IOException {
        Files.writeString(workspace.resolve("AGENTS.md"), "deploy with API_TOKEN=abc123def456ghi789");

        assertThat(files.read(workspace).getFirst().content()).doesNotContain("abc123def456ghi789")
                .contains("[REDACTED]");
    }

    @Test
    void a_symbolic_link_is_not_followed_out_of_the_workspace(@TempDir Path elsewhere) throws IOException {
        Path secret = Files.writeString(elsewhere.resolve("secret.txt"), "the host's secret");
        Files.createSymbolicLink(workspace.resolve("AGENTS.md"), secret);

        assertThat(files.read(workspace)).isEmpty();
    }

    @Test
    void a_change_is_reported_once_and_a_session_without_files_reports_nothing() throws IOException {
        assertThat(files.changed("s1", workspace)).isEmpty();

        Files.writeString(workspace.resolve(".soul.md"), "You are terse.");
        List<ContextFile> now = files.changed("s1", workspace).orElseThrow();
        files.reported("s1", now);
        assertThat(files.changed("s1", workspace)).isEmpty();

        Files.delete(workspace.resolve(".soul.md"));
        assertThat(files.changed("s1", workspace)).contains(List.of());
    }
}
