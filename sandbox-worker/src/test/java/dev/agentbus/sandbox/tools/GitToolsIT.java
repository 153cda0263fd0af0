package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** The git tools, run by a real git inside a real bubblewrap sandbox. */
class GitToolsIT extends SandboxedToolsIT {
    private void init() {
        ToolOutcome init = call("run_command", "command", "git", "args", List.of("init", "-q", "-b", "main"));
        assertThat(init.ok()).as(init.forModel()).isTrue();
    }

    @Test
    void outside_a_repository_the_model_is_told_how_to_make_one() {
        ToolOutcome status = call("git_status");

        assertThat(status.ok()).isFalse();
        assertThat(status.error()).startsWith("git status failed: fatal: not a git repository")
                .endsWith("create one with run_command {\"command\": \"git\", \"args\": [\"init\"]}");
    }

    @Test
    void status_add_commit_log_and_diff_work_together() throws IOException {
        init();
        Files.writeString(ws.resolve("a.txt"), "one\n");

        assertThat(call("git_status").output()).contains("?? a.txt");
        assertThat(call("git_add", "paths", List.of("a.txt")).output()).contains("A  a.txt");
        ToolOutcome commit = call("git_commit", "message", "first commit");
        assertThat(commit.ok()).as(commit.forModel()).isTrue();
        assertThat(call("git_log").output()).contains("Agentbus agent: first commit");

        Files.writeString(ws.resolve("a.txt"), "two\n");
        ToolOutcome diff = call("git_diff", "path", "a.txt");
        assertThat(diff.output()).contains("-one\n+two\n");
        assertThat(call("git_diff", "staged", true).output()).isEqualTo("no changes\n");

        ToolOutcome all = call("git_commit", "message", "second", "all", true);
        assertThat(all.ok()).as(all.forModel()).isTrue();
        assertThat(call("git_log", "limit", 1).output()).contains("second").doesNotContain("first commit");
        assertThat(call("git_diff", "revision", "HEAD~1").output()).contains("-one\n+two\n");
    }

    @Test
    void branches_are_listed_created_and_switched_to() throws IOException {
        init();
        Files.writeString(ws.resolve("a.txt"), "x\n");
        call("git_add", "paths", List.of("."));
        call("git_commit", "message", "base");

        assertThat(call("git_branch", "name", "feature").output()).startsWith("created branch feature");
        assertThat(call("git_branch", "name", "feature").output()).startsWith("branch feature already exists");
        assertThat(call("git_branch", "name", "feature", "switch", true).output())
                .startsWith("switched to branch feature");
        assertThat(call("git_branch", "name", "topic", "switch", true).output())
                .startsWith("created and switched to branch topic");
        assertThat(call("git_branch").output()).contains("* topic").contains("feature").contains("main");
    }

    @Test
    void arguments_that_could_be_options_or_leave_the_workspace_are_stopped() {
        init();

        assertThat(call("git_diff", "revision", "--output=/workspace/x").error())
                .isEqualTo("'--output=/workspace/x' is not a valid revision");
        assertThat(call("git_branch", "name", "-D").error()).isEqualTo("'-D' is not a valid branch name");
        assertThat(call("git_add", "paths", List.of("../outside")).refusal())
                .isEqualTo("path escapes the workspace: ../outside");
        assertThat(call("git_log", "limit", 0).error()).isEqualTo("limit must be between 1 and 200");
        assertThat(ws.resolve("x")).doesNotExist();
    }

    @Test
    void nothing_to_commit_is_a_failure_with_gits_reason() {
        init();

        ToolOutcome commit = call("git_commit", "message", "empty");

        assertThat(commit.ok()).isFalse();
        assertThat(commit.error()).startsWith("git commit failed: ");
    }
}
