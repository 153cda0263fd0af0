package dev.agentbus.sandbox.checkpointing;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint is a plain git commit: the {@code git} program reads what the worker writes in-process, and the
 * worker reads repositories that earlier versions wrote with the {@code git} program. These tests start git
 * themselves (the worker no longer does).
 */
class GitFormatTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

    @TempDir
    Path root;
    Checkpoints checkpoints;
    Path workspace;
    Path gitDir;

    @BeforeEach
    void setUp() throws IOException {
        checkpoints = new Checkpoints(root, Clock.fixed(NOW, ZoneOffset.UTC));
        workspace = Files.createDirectories(root.resolve("alice").resolve("s1"));
        gitDir = checkpoints.root().resolve("alice").resolve("s1.git");
    }

    /** Names whose order in a tree git is strict about, modes, a link, text git would convert, an own repository. */
    private void aVariedWorkspace() throws Exception {
        for (String name : List.of("ab", "a.txt", "a-b", "a/b", "a/b.c/d", "a.c/x", "ä/ü.txt", "Z", "z z",
                ".hidden", "deep/er/and/deeper/file")) {
            Path file = workspace.resolve(name);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "content of " + name + "\r\n");
        }
        Files.writeString(workspace.resolve("a.txt"), "no newline at the end");
        Files.write(workspace.resolve("binary.bin"), new byte[] {0, 1, 2, (byte) 0xff, 0, '\n'});
        Path script = Files.writeString(workspace.resolve("run.sh"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
        Files.createSymbolicLink(workspace.resolve("link"), Path.of("a/b"));
        Files.createSymbolicLink(workspace.resolve("dangling"), Path.of("../../outside"));
        Files.writeString(workspace.resolve(".gitignore"), "*.txt\n");
        Files.writeString(workspace.resolve(".gitattributes"), "* text eol=crlf\n");
        Files.createDirectories(workspace.resolve("empty/dir"));
        Path own = Files.createDirectories(workspace.resolve("project"));
        git(null, null, "init", "-q", own.toString());
        Files.writeString(own.resolve("README.md"), "project\n");
    }

    @Test
    void a_checkpoint_has_exactly_the_tree_the_git_program_wrote_for_the_same_workspace() throws Exception {
        aVariedWorkspace();

        String checkpoint = checkpoints.record("alice", "s1", workspace, "shell", "c1").orElseThrow();

        assertThat(git(null, gitDir, "rev-parse", checkpoint + "^{tree}").strip())
                .isEqualTo(treeAsTheGitProgramWritesIt());
    }

    @Test
    void git_reads_the_checkpoints_as_commits_on_main_and_finds_nothing_wrong() throws Exception {
        aVariedWorkspace();
        String first = checkpoints.record("alice", "s1", workspace, "write", "c1").orElseThrow();
        Files.writeString(workspace.resolve("a.txt"), "changed");
        String second = checkpoints.record("alice", "s1", workspace, "edit", "c2",
                List.of(workspace.toRealPath().resolve("a.txt"))).orElseThrow();

        assertThat(git(null, gitDir, "fsck", "--strict", "--no-dangling")).isEmpty();
        assertThat(git(null, gitDir, "log", "--format=%H %P|%an <%ae>|%cn <%ce>|%at %ct|%s", "main").lines())
                .containsExactly(
                        second + " " + first + "|agentbus <agentbus@localhost>|agentbus <agentbus@localhost>|"
                                + NOW.getEpochSecond() + " " + NOW.getEpochSecond() + "|after edit c2",
                        first + " |agentbus <agentbus@localhost>|agentbus <agentbus@localhost>|"
                                + NOW.getEpochSecond() + " " + NOW.getEpochSecond() + "|after write c1");
        assertThat(git(null, gitDir, "log", "-1", "--format=%B", "main")).isEqualTo("after edit c2\n\nsession s1\n\n");
        assertThat(git(null, gitDir, "symbolic-ref", "HEAD").strip()).isEqualTo("refs/heads/main");
        assertThat(git(null, gitDir, "show", "main:a.txt")).isEqualTo("changed");
    }

    @Test
    void a_repository_written_by_the_git_program_of_earlier_versions_is_read_and_continued() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        String byGit = checkpointTheWayEarlierVersionsDid();

        assertThat(checkpoints.latest("alice", "s1", workspace)).contains(byGit);
        assertThat(checkpoints.record("alice", "s1", workspace, "shell", "c2")).as("the same files").isEmpty();
        Files.writeString(workspace.resolve("a.txt"), "two\n");
        String next = checkpoints.record("alice", "s1", workspace, "shell", "c3").orElseThrow();
        assertThat(git(null, gitDir, "rev-parse", next + "^").strip()).isEqualTo(byGit);

        checkpoints.rewind("alice", "s1", workspace, byGit.substring(0, 8));
        assertThat(workspace.resolve("a.txt")).hasContent("one");
    }

    /** The tree of the workspace by the commands the worker ran before (a Java walk, update-index, write-tree). */
    private String treeAsTheGitProgramWritesIt() throws Exception {
        Path scratch = Files.createDirectories(root.resolve("scratch.git"));
        git(null, null, "init", "-q", "--bare", scratch.toString());
        Files.writeString(scratch.resolve("info/attributes"), "* -text -eol -filter -ident -working-tree-encoding\n");
        git(workspace, scratch, filesOfTheWorkspace(), "update-index", "--add", "--remove", "-z", "--stdin");
        return git(null, scratch, "write-tree").strip();
    }

    private String checkpointTheWayEarlierVersionsDid() throws Exception {
        Files.createDirectories(gitDir.getParent());
        git(null, null, "init", "-q", "--bare", "--initial-branch=main", gitDir.toString());
        git(workspace, gitDir, filesOfTheWorkspace(), "update-index", "--add", "--remove", "-z", "--stdin");
        String tree = git(null, gitDir, "write-tree").strip();
        String commit = git(null, gitDir, "commit-tree", tree, "-m", "after write c1").strip();
        git(null, gitDir, "update-ref", "refs/heads/main", commit);
        return commit;
    }

    private byte[] filesOfTheWorkspace() throws IOException {
        ByteArrayOutputStream paths = new ByteArrayOutputStream();
        try (Stream<Path> all = Files.walk(workspace)) {
            for (Path p : all.toList()) {
                String rel = workspace.relativize(p).toString();
                boolean inGit = Stream.of(rel.split("/")).anyMatch(n -> n.equalsIgnoreCase(".git"));
                if (!inGit && (Files.isSymbolicLink(p) || Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))) {
                    paths.writeBytes(rel.getBytes(StandardCharsets.UTF_8));
                    paths.write(0);
                }
            }
        }
        return paths.toByteArray();
    }

    private static String git(Path workTree, Path gitDir, String... args) throws Exception {
        return git(workTree, gitDir, null, args);
    }

    private static String git(Path workTree, Path gitDir, byte[] stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-c", "core.autocrlf=false", "-c", "core.filemode=true",
                "-c", "core.symlinks=true", "-c", "safe.directory=*"));
        if (gitDir != null) {
            command.add("--git-dir=" + gitDir);
        }
        if (workTree != null) {
            command.add("--work-tree=" + workTree);
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("GIT_"));
        env.putAll(Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null", "LC_ALL", "C",
                "GIT_AUTHOR_NAME", "agentbus", "GIT_AUTHOR_EMAIL", "agentbus@localhost",
                "GIT_COMMITTER_NAME", "agentbus", "GIT_COMMITTER_EMAIL", "agentbus@localhost"));
        pb.directory((workTree != null ? workTree : gitDir != null ? gitDir : Path.of("/")).toFile());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
        return out;
    }
}
