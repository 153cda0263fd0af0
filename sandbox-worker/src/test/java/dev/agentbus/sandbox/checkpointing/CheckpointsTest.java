package dev.agentbus.sandbox.checkpointing;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checkpoint store against real files: take, restore, rewind, fork (git itself only checks the results). */
class CheckpointsTest {
    @TempDir
    Path root;
    Checkpoints checkpoints;
    Path workspace;

    @BeforeEach
    void setUp() throws IOException {
        checkpoints = new Checkpoints(root, Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC));
        workspace = Files.createDirectories(root.resolve("alice").resolve("s1"));
    }

    private Optional<String> record(String callId) throws CheckpointException {
        return checkpoints.record("alice", "s1", workspace, "write", callId);
    }

    /** Every file of a directory (not under .git) with its content; symlinks as "-> target". */
    static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                String rel = dir.relativize(p).toString();
                if (rel.isEmpty() || rel.equals(".git") || rel.startsWith(".git/") || rel.contains("/.git/")
                        || rel.endsWith("/.git")) {
                    continue;
                }
                if (Files.isSymbolicLink(p)) {
                    files.put(rel, "-> " + Files.readSymbolicLink(p));
                } else if (Files.isRegularFile(p)) {
                    files.put(rel, Files.readString(p, StandardCharsets.ISO_8859_1));
                }
            }
        }
        return files;
    }

    @Test
    void a_call_that_changed_files_gets_a_checkpoint_and_one_that_did_not_gets_none() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\n");

        Optional<String> first = record("c1");
        Optional<String> unchanged = record("c2");
        Files.writeString(workspace.resolve("a.txt"), "two\n");
        Optional<String> second = record("c3");

        assertThat(first).hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f]{40}"));
        assertThat(unchanged).isEmpty();
        assertThat(second).isPresent().isNotEqualTo(first);
        assertThat(checkpoints.latest("alice", "s1", workspace)).isEqualTo(second);
    }

    @Test
    void a_lock_left_by_a_worker_killed_mid_checkpoint_does_not_stop_the_next_one() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        record("c1");
        Path repo = checkpoints.root().resolve("alice").resolve("s1.git");
        Files.writeString(repo.resolve("index.lock"), "");
        Files.writeString(repo.resolve("refs/heads/main.lock"), "");
        Files.writeString(workspace.resolve("a.txt"), "two\n");

        assertThat(record("c2")).isPresent();
    }

    @Test
    void an_empty_workspace_that_stays_empty_needs_no_checkpoint() throws Exception {
        assertThat(record("c1")).isEmpty();
        assertThat(checkpoints.latest("alice", "s1", workspace)).isEmpty();
    }

    @Test
    void the_repository_lives_outside_the_workspace() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        record("c1");

        assertThat(checkpoints.root().resolve("alice").resolve("s1.git").resolve("HEAD")).exists();
        assertThat(files(workspace)).containsOnlyKeys("a.txt");
        try (Stream<Path> inside = Files.list(workspace)) {
            assertThat(inside.map(p -> p.getFileName().toString())).containsExactly("a.txt");
        }
    }

    @Test
    void a_rewind_restores_exactly_the_files_of_the_checkpoint() throws Exception {
        Files.createDirectories(workspace.resolve("src/deep"));
        Files.writeString(workspace.resolve("src/deep/Main.java"), "class Main {}\n");
        Files.writeString(workspace.resolve("notes.txt"), "keep\r\nCRLF stays\r\n");
        Path script = Files.writeString(workspace.resolve("run.sh"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(workspace.resolve("link"), Path.of("notes.txt"));
        String checkpoint = record("c1").orElseThrow();
        Map<String, String> before = files(workspace);

        // the agent changes, deletes, adds, and replaces a file with a directory
        Files.writeString(workspace.resolve("notes.txt"), "changed");
        Files.delete(workspace.resolve("src/deep/Main.java"));
        Files.createDirectories(workspace.resolve("build/out"));
        Files.writeString(workspace.resolve("build/out/app.jar"), "binary");
        Files.delete(workspace.resolve("link"));
        Files.createDirectories(workspace.resolve("link"));
        Files.writeString(workspace.resolve("link/inside"), "x");
        String later = record("c2").orElseThrow();

        Checkpoints.Rewound rewound = checkpoints.rewind("alice", "s1", workspace, checkpoint.substring(0, 10));
        Optional<String> afterRewind = record("u1");

        assertThat(files(workspace)).isEqualTo(before);
        assertThat(workspace.resolve("build")).doesNotExist();
        assertThat(Files.isSymbolicLink(workspace.resolve("link"))).isTrue();
        assertThat(Files.isExecutable(workspace.resolve("run.sh"))).isTrue();
        assertThat(rewound.restored()).isEqualTo(checkpoint);
        assertThat(rewound.files()).isEqualTo(4);
        // the rewind is a checkpoint of its own, so it can be undone
        assertThat(afterRewind).isPresent().get().isNotIn(checkpoint, later);
        checkpoints.rewind("alice", "s1", workspace, later);
        assertThat(files(workspace)).containsEntry("build/out/app.jar", "binary").containsEntry("notes.txt", "changed");
    }

    @Test
    void nothing_the_agent_planted_in_the_workspace_changes_what_is_recorded() throws Exception {
        // its own ignore rules, line-ending conversions and a filter that would run a program
        Files.writeString(workspace.resolve(".gitignore"), "*.log\nsecret/\n");
        Files.writeString(workspace.resolve(".gitattributes"), "* text eol=crlf filter=evil\n");
        Files.writeString(workspace.resolve("app.log"), "ignored by its .gitignore, kept by the checkpoint\n");
        Files.createDirectories(workspace.resolve("secret"));
        Files.writeString(workspace.resolve("secret/key"), "k\n");
        Files.writeString(workspace.resolve("unix.txt"), "a\nb\n");
        // a repository of its own, with a hook and a config naming the filter
        Path repo = Files.createDirectories(workspace.resolve("project"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve(".git/config"), "[filter \"evil\"]\n\tclean = touch " + root.resolve("PWNED")
                + "\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(repo.resolve("README.md"), "project\n");
        String checkpoint = record("c1").orElseThrow();
        Map<String, String> before = files(workspace);

        try (Stream<Path> all = Files.walk(workspace)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!p.equals(workspace) && !p.toString().contains("/.git")) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (java.nio.file.DirectoryNotEmptyException holdsTheAgentsRepository) {
                        // project/ keeps its .git
                    }
                }
            }
        }
        checkpoints.rewind("alice", "s1", workspace, checkpoint);

        assertThat(files(workspace)).isEqualTo(before)
                .containsEntry("app.log", "ignored by its .gitignore, kept by the checkpoint\n")
                .containsEntry("secret/key", "k\n")
                .containsEntry("unix.txt", "a\nb\n")
                .containsEntry("project/README.md", "project\n");
        assertThat(root.resolve("PWNED")).doesNotExist();
        // the agent's own repository is left alone: not recorded, not deleted
        assertThat(repo.resolve(".git/HEAD")).exists();
    }

    @Test
    void a_rewind_to_an_unknown_checkpoint_fails_and_changes_nothing() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        record("c1");

        assertThatThrownBy(() -> checkpoints.rewind("alice", "s1", workspace, "deadbeefdeadbeef"))
                .isInstanceOf(CheckpointException.class).hasMessageContaining("no checkpoint deadbeefdeadbeef");
        assertThatThrownBy(() -> checkpoints.rewind("alice", "s1", workspace, "HEAD~1"))
                .isInstanceOf(CheckpointException.class).hasMessageContaining("not a checkpoint id");
        assertThat(files(workspace)).containsExactly(Map.entry("a.txt", "one\n"));
    }

    @Test
    void a_session_without_checkpoints_cannot_rewind() throws Exception {
        assertThatThrownBy(() -> checkpoints.rewind("alice", "s1", workspace, "abcdef12"))
                .isInstanceOf(CheckpointException.class).hasMessageContaining("no checkpoints yet");
    }

    @Test
    void a_fork_starts_from_the_source_checkpoint_and_then_lives_its_own_life() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "at the fork\n");
        String atFork = record("c1").orElseThrow();
        Files.writeString(workspace.resolve("a.txt"), "later in the source\n");
        Files.writeString(workspace.resolve("b.txt"), "only in the source\n");
        String sourceLatest = record("c2").orElseThrow();
        Path forkWorkspace = Files.createDirectories(root.resolve("bob").resolve("f1"));

        boolean restored = checkpoints.startFork("alice", "s1", atFork, "bob", "f1", forkWorkspace);

        assertThat(restored).isTrue();
        assertThat(files(forkWorkspace)).containsExactly(Map.entry("a.txt", "at the fork\n"));
        assertThat(checkpoints.latest("bob", "f1", forkWorkspace)).contains(atFork);
        // the source is untouched
        assertThat(files(workspace)).containsEntry("a.txt", "later in the source\n").containsKey("b.txt");
        assertThat(checkpoints.latest("alice", "s1", workspace)).contains(sourceLatest);

        // the fork's changes are its own
        Files.writeString(forkWorkspace.resolve("c.txt"), "fork only\n");
        String forkNext = checkpoints.record("bob", "f1", forkWorkspace, "write", "c3").orElseThrow();
        assertThat(workspace.resolve("c.txt")).doesNotExist();
        assertThat(checkpoints.latest("alice", "s1", workspace)).contains(sourceLatest);
        // and the fork can rewind to the checkpoint it was forked from
        checkpoints.rewind("bob", "f1", forkWorkspace, atFork);
        assertThat(files(forkWorkspace)).containsExactly(Map.entry("a.txt", "at the fork\n"));
        assertThat(forkNext).isNotEqualTo(atFork);
    }

    @Test
    void a_fork_seen_again_after_a_restart_does_not_touch_the_forks_files() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "at the fork\n");
        String atFork = record("c1").orElseThrow();
        Path forkWorkspace = Files.createDirectories(root.resolve("alice").resolve("f1"));
        checkpoints.startFork("alice", "s1", atFork, "alice", "f1", forkWorkspace);
        Files.writeString(forkWorkspace.resolve("a.txt"), "the fork's own work\n");

        boolean again = checkpoints.startFork("alice", "s1", atFork, "alice", "f1", forkWorkspace);

        assertThat(again).isFalse();
        assertThat(forkWorkspace.resolve("a.txt")).hasContent("the fork's own work");
    }

    @Test
    void a_fork_of_a_session_with_no_checkpoints_here_fails_with_a_reason() throws Exception {
        Path forkWorkspace = Files.createDirectories(root.resolve("alice").resolve("f1"));

        assertThatThrownBy(() -> checkpoints.startFork("alice", "elsewhere", "abcdef1", "alice", "f1", forkWorkspace))
                .isInstanceOf(CheckpointException.class)
                .hasMessageContaining("has no checkpoints on this worker's volume");
    }

    @Test
    void crafted_ids_cannot_name_a_repository_outside_the_root() {
        assertThatThrownBy(() -> checkpoints.record("..", "s1", workspace, "write", "c1"))
                .hasMessageContaining("unsafe");
        assertThatThrownBy(() -> checkpoints.record("alice", "../bob", workspace, "write", "c1"))
                .hasMessageContaining("unsafe");
    }

    @Test
    void read_only_tools_are_not_checkpointed_and_every_other_tool_is() {
        assertThat(Checkpoints.mayChangeFiles("read")).isFalse();
        assertThat(Checkpoints.mayChangeFiles("grep")).isFalse();
        assertThat(Checkpoints.mayChangeFiles("write")).isTrue();
        assertThat(Checkpoints.mayChangeFiles("shell")).isTrue();
        assertThat(Checkpoints.mayChangeFiles("rewind")).isTrue();
        assertThat(Checkpoints.mayChangeFiles("a_tool_added_later")).isTrue();
    }

    private static void git(Path dir, String... args) throws Exception {
        var command = new java.util.ArrayList<>(java.util.List.of("git"));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }
}
