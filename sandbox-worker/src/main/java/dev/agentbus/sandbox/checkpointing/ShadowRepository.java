package dev.agentbus.sandbox.checkpointing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One session's shadow git repository: a bare repository kept outside the workspace (so nothing running in the
 * sandbox can see or change it) whose work tree is the workspace. Its branch {@code main} is the chain of the
 * session's checkpoints, newest last; a rewind adds a commit too, so it never loses one.
 *
 * <p>What a checkpoint holds: every regular file and symbolic link of the workspace with its executable bit, whatever
 * the workspace's own {@code .gitignore} says, byte for byte (no line-ending or filter conversion), including the
 * files of repositories the agent cloned or created inside the workspace. What it leaves out: directories named
 * {@code .git} (git cannot store them, and they are the agent's own repositories, not ours), empty directories (git
 * tracks files only) and special files (sockets, fifos, devices).
 *
 * <p>The index ({@code <repo>/index}) mirrors the workspace as of the last snapshot, so unchanged files are not
 * read again (git compares size, times and inode).
 */
final class ShadowRepository {
    static final String BRANCH = "refs/heads/main";
    private static final Pattern COMMIT_PREFIX = Pattern.compile("[0-9a-f]{7,64}");
    /**
     * The highest-precedence attributes file: every path is binary with no filter, so a {@code .gitattributes} the
     * agent wrote cannot make git convert line endings or run a filter on the way into or out of a checkpoint.
     */
    private static final String NO_CONVERSIONS = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n";

    private final Git git;
    private final Path gitDir;
    private final Path workTree;

    ShadowRepository(Git git, Path gitDir, Path workTree) {
        this.git = git;
        this.gitDir = gitDir;
        this.workTree = workTree;
    }

    Path gitDir() {
        return gitDir;
    }

    boolean exists() {
        return Files.isRegularFile(gitDir.resolve("HEAD"));
    }

    /** Creates the repository if it does not exist; harmless when it does. */
    void init() throws CheckpointException {
        try {
            Files.createDirectories(gitDir.getParent());
            if (!exists()) {
                git.run(null, null, null, Map.of(), "init", "--quiet", "--bare", "--initial-branch=main",
                        gitDir.toString());
            }
            // Locks left by a git the worker was killed in the middle of. Nothing else can hold them: one session's
            // calls run one after another on one worker, so a lock seen here is always stale.
            Files.deleteIfExists(gitDir.resolve("index.lock"));
            Files.deleteIfExists(gitDir.resolve("refs/heads/main.lock"));
            Path info = gitDir.resolve("info");
            Files.createDirectories(info);
            Files.writeString(info.resolve("attributes"), NO_CONVERSIONS, StandardCharsets.UTF_8);
            // A bare repository has no work tree of its own; ours is always given with --work-tree.
        } catch (IOException e) {
            throw new CheckpointException("cannot create the checkpoint repository: " + e.getMessage(), e);
        }
    }

    /** The latest checkpoint (the tip of main), if there is one. */
    Optional<String> head() throws CheckpointException {
        return verify(BRANCH);
    }

    /**
     * Takes a snapshot of the workspace and records it as a new checkpoint if it differs from the latest one.
     *
     * @return the new checkpoint's commit id, or empty when no file changed
     */
    Optional<String> commitIfChanged(String message, Instant time) throws CheckpointException {
        init();
        String tree = snapshot();
        Optional<String> parent = head();
        String parentTree = parent.isPresent() ? treeOf(parent.get()) : emptyTree();
        if (tree.equals(parentTree)) {
            return Optional.empty();
        }
        String date = time.getEpochSecond() + " +0000";
        Map<String, String> env = Map.of(
                "GIT_AUTHOR_NAME", "agentbus", "GIT_AUTHOR_EMAIL", "agentbus@localhost", "GIT_AUTHOR_DATE", date,
                "GIT_COMMITTER_NAME", "agentbus", "GIT_COMMITTER_EMAIL", "agentbus@localhost",
                "GIT_COMMITTER_DATE", date);
        String commit = parent.isPresent()
                ? git.run(gitDir, null, null, env, "commit-tree", tree, "-p", parent.get(), "-m", message).strip()
                : git.run(gitDir, null, null, env, "commit-tree", tree, "-m", message).strip();
        // Compare-and-swap on the branch: two writers of one session would be a bug, and this would catch it.
        git.run(gitDir, null, null, Map.of(), "update-ref", BRANCH, commit,
                parent.orElse("0000000000000000000000000000000000000000"));
        return Optional.of(commit);
    }

    /**
     * Makes the workspace exactly the checkpoint's files: changed files are rewritten, missing ones created, files
     * that are not in the checkpoint deleted (directories named {@code .git} are left alone). Does not move main:
     * the caller records the restored state as a checkpoint of its own if it wants one.
     *
     * @return the full commit id restored, and how many files it holds
     */
    Restored restore(String checkpoint) throws CheckpointException {
        init();
        String commit = resolve(checkpoint);
        // First the index must list every file now in the workspace: then "read-tree -u" deletes exactly those the
        // checkpoint does not have, and it never overwrites a file it does not know about.
        snapshot();
        git.run(gitDir, workTree, null, Map.of(), "read-tree", "--reset", "-u", commit);
        int files = git.run(gitDir, null, null, Map.of(), "ls-tree", "-r", "--name-only", "-z", commit)
                .split("\0", -1).length - 1;
        return new Restored(commit, files);
    }

    /** A full commit id of this repository for a checkpoint id or a unique prefix of one (at least 7 hex digits). */
    String resolve(String checkpoint) throws CheckpointException {
        if (checkpoint == null || !COMMIT_PREFIX.matcher(checkpoint).matches()) {
            throw new CheckpointException("not a checkpoint id: " + checkpoint
                    + " (expected 7 to 40 hexadecimal digits, as in tool_call.completed.v1's checkpoint)");
        }
        return verify(checkpoint).orElseThrow(() -> new CheckpointException(
                "no checkpoint " + checkpoint + " in this session"));
    }

    /**
     * Copies the other repository's checkpoints into this one (objects and history; nothing is shared afterwards,
     * so either session may be deleted later), and makes {@code checkpoint} this repository's latest.
     */
    void startFrom(ShadowRepository source, String checkpoint) throws CheckpointException {
        init();
        git.run(gitDir, null, null, Map.of(), "fetch", "--quiet", "--no-tags", "--no-write-fetch-head",
                source.gitDir().toString(), "+" + BRANCH + ":refs/agentbus/source");
        String commit = resolve(checkpoint);
        restore(commit);
        // Last, so that a fork whose restore was interrupted is done again (see Checkpoints.startFork).
        git.run(gitDir, null, null, Map.of(), "update-ref", BRANCH, commit);
        git.run(gitDir, null, null, Map.of(), "update-ref", "-d", "refs/agentbus/source");
    }

    /** Writes the workspace into the index and returns its tree id. */
    private String snapshot() throws CheckpointException {
        ByteArrayOutputStream paths = new ByteArrayOutputStream();
        // Everything the index lists (so that deleted files are removed from it) plus everything on disk.
        String indexed = git.run(gitDir, workTree, null, Map.of(), "ls-files", "-z");
        paths.writeBytes(indexed.getBytes(StandardCharsets.UTF_8));
        try {
            Files.walkFileTree(workTree, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return dir.equals(workTree) || !isGitDir(dir) ? FileVisitResult.CONTINUE
                            : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if ((attrs.isRegularFile() || attrs.isSymbolicLink()) && !isGitDir(file)) {
                        String relative = workTree.relativize(file).toString();
                        paths.writeBytes(relative.getBytes(StandardCharsets.UTF_8));
                        paths.write(0);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // vanished or unreadable: git reports it below if it matters
                }
            });
        } catch (IOException e) {
            throw new CheckpointException("cannot read the workspace: " + e.getMessage(), e);
        }
        git.run(gitDir, workTree, paths.toByteArray(), Map.of(), "update-index", "--add", "--remove", "-z", "--stdin");
        return git.run(gitDir, null, null, Map.of(), "write-tree").strip();
    }

    /** {@code .git} in any letter case: git refuses such paths, and they are the agent's repositories. */
    private static boolean isGitDir(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().equalsIgnoreCase(".git");
    }

    private String treeOf(String commit) throws CheckpointException {
        return git.run(gitDir, null, null, Map.of(), "rev-parse", "--verify", "--quiet", commit + "^{tree}").strip();
    }

    private String emptyTree() throws CheckpointException {
        return git.run(gitDir, null, new byte[0], Map.of(), "hash-object", "-t", "tree", "--stdin").strip();
    }

    private Optional<String> verify(String rev) throws CheckpointException {
        if (!exists()) {
            return Optional.empty();
        }
        try {
            return Optional.of(git.run(gitDir, null, null, Map.of(), "rev-parse", "--verify", "--quiet",
                    rev + "^{commit}").strip());
        } catch (CheckpointException unknown) {
            return Optional.empty();
        }
    }

    /** The outcome of a restore: the full id of the checkpoint and how many files the workspace now has. */
    record Restored(String commit, int files) {
    }
}
