package dev.agentbus.bench.checkpoints;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checkpoints as the sandbox-worker took them before they moved in-process: one shadow repository per
 * session, driven by {@code git} processes ({@code ls-files}, {@code update-index}, {@code write-tree},
 * {@code rev-parse}, {@code commit-tree}, {@code update-ref}; {@code read-tree -u} to restore). A condensed copy of
 * {@code checkpointing/Git} and {@code ShadowRepository} as of commit 3f2a00d, with the same command lines and
 * the same clean environment, kept here only so {@link CheckpointBench} can measure old and new in one run.
 */
final class GitProcessCheckpoints {
    private static final String BRANCH = "refs/heads/main";
    private static final List<String> SAFE_CONFIG = List.of("core.hooksPath=/dev/null", "core.fsmonitor=false",
            "core.autocrlf=false", "core.safecrlf=false", "core.symlinks=true", "core.filemode=true",
            "core.ignorecase=false", "core.precomposeunicode=false", "core.protectNTFS=false",
            "core.protectHFS=false", "core.quotepath=false", "core.untrackedCache=false", "core.splitIndex=false",
            "gc.auto=0", "maintenance.auto=false", "commit.gpgSign=false", "protocol.file.allow=always",
            "advice.detachedHead=false", "safe.directory=*");

    private final Path gitDir;
    private final Path workTree;

    GitProcessCheckpoints(Path gitDir, Path workTree) {
        this.gitDir = gitDir;
        this.workTree = workTree;
    }

    Optional<String> commitIfChanged(String message, Instant time) throws IOException {
        init();
        String tree = snapshot();
        Optional<String> parent = verify(BRANCH);
        String parentTree = parent.isPresent()
                ? run(gitDir, null, null, Map.of(), "rev-parse", "--verify", "--quiet", parent.get() + "^{tree}")
                .strip()
                : run(gitDir, null, new byte[0], Map.of(), "hash-object", "-t", "tree", "--stdin").strip();
        if (tree.equals(parentTree)) {
            return Optional.empty();
        }
        String date = time.getEpochSecond() + " +0000";
        Map<String, String> env = Map.of("GIT_AUTHOR_NAME", "agentbus", "GIT_AUTHOR_EMAIL", "agentbus@localhost",
                "GIT_AUTHOR_DATE", date, "GIT_COMMITTER_NAME", "agentbus", "GIT_COMMITTER_EMAIL",
                "agentbus@localhost", "GIT_COMMITTER_DATE", date);
        String commit = parent.isPresent()
                ? run(gitDir, null, null, env, "commit-tree", tree, "-p", parent.get(), "-m", message).strip()
                : run(gitDir, null, null, env, "commit-tree", tree, "-m", message).strip();
        run(gitDir, null, null, Map.of(), "update-ref", BRANCH, commit,
                parent.orElse("0000000000000000000000000000000000000000"));
        return Optional.of(commit);
    }

    void restore(String checkpoint) throws IOException {
        init();
        String commit = verify(checkpoint).orElseThrow(() -> new IOException("no checkpoint " + checkpoint));
        snapshot();
        run(gitDir, workTree, null, Map.of(), "read-tree", "--reset", "-u", commit);
        run(gitDir, null, null, Map.of(), "ls-tree", "-r", "--name-only", "-z", commit);
    }

    private void init() throws IOException {
        Files.createDirectories(gitDir.getParent());
        if (!Files.isRegularFile(gitDir.resolve("HEAD"))) {
            run(null, null, null, Map.of(), "init", "--quiet", "--bare", "--initial-branch=main", gitDir.toString());
        }
        Files.deleteIfExists(gitDir.resolve("index.lock"));
        Files.deleteIfExists(gitDir.resolve("refs/heads/main.lock"));
        Path info = Files.createDirectories(gitDir.resolve("info"));
        Files.writeString(info.resolve("attributes"),
                "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n", StandardCharsets.UTF_8);
    }

    private String snapshot() throws IOException {
        ByteArrayOutputStream paths = new ByteArrayOutputStream();
        paths.writeBytes(run(gitDir, workTree, null, Map.of(), "ls-files", "-z").getBytes(StandardCharsets.UTF_8));
        Files.walkFileTree(workTree, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.equals(workTree) || !dir.getFileName().toString().equalsIgnoreCase(".git")
                        ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
                    paths.writeBytes(workTree.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                    paths.write(0);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        run(gitDir, workTree, paths.toByteArray(), Map.of(), "update-index", "--add", "--remove", "-z", "--stdin");
        return run(gitDir, null, null, Map.of(), "write-tree").strip();
    }

    private Optional<String> verify(String rev) {
        try {
            return Optional.of(run(gitDir, null, null, Map.of(), "rev-parse", "--verify", "--quiet",
                    rev + "^{commit}").strip());
        } catch (IOException unknown) {
            return Optional.empty();
        }
    }

    private static String run(Path gitDir, Path workTree, byte[] stdin, Map<String, String> env, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of("git"));
        for (String setting : SAFE_CONFIG) {
            command.add("-c");
            command.add(setting);
        }
        if (gitDir != null) {
            command.add("--git-dir=" + gitDir);
        }
        if (workTree != null) {
            command.add("--work-tree=" + workTree);
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> environment = pb.environment();
        environment.clear();
        environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        environment.put("HOME", "/nonexistent");
        environment.put("LC_ALL", "C");
        environment.put("GIT_CONFIG_NOSYSTEM", "1");
        environment.put("GIT_CONFIG_GLOBAL", "/dev/null");
        environment.put("GIT_TERMINAL_PROMPT", "0");
        environment.put("GIT_NO_REPLACE_OBJECTS", "1");
        environment.putAll(env);
        if (workTree != null) {
            pb.directory(workTree.toFile());
        } else if (gitDir != null) {
            pb.directory(gitDir.toFile());
        }
        Process process = pb.start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> copy(process.getErrorStream(), err));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread outReader = Thread.ofVirtual().start(() -> copy(process.getInputStream(), out));
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        }
        try {
            int status = process.waitFor();
            outReader.join();
            errReader.join();
            if (status != 0) {
                throw new IOException("git " + args[0] + " failed (exit " + status + "): "
                        + err.toString(StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void copy(InputStream from, ByteArrayOutputStream to) {
        try (from) {
            from.transferTo(to);
        } catch (IOException ignored) {
            // the process ended
        }
    }
}
