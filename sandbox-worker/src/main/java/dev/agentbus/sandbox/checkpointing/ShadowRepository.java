package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One session's shadow git repository: a bare repository kept outside the workspace (so nothing running in the
 * sandbox can see or change it) whose branch {@code main} is the chain of the session's checkpoints, newest last; a
 * rewind adds a commit too, so it never loses one. Written and read in-process with JGit: a checkpoint starts no
 * process. The format is plain git (loose objects, a ref), so {@code git --git-dir=... log} shows the checkpoints,
 * and repositories written by earlier versions, which ran the {@code git} program, are read as they are.
 *
 * <p>What a checkpoint holds: every regular file and symbolic link of the workspace with its executable bit, whatever
 * the workspace's own {@code .gitignore} says, byte for byte (no line-ending or filter conversion: nothing here
 * applies attributes), including the files of repositories the agent cloned or created inside the workspace. What
 * it leaves out: directories named {@code .git} (git cannot store them, and they are the agent's own repositories,
 * not ours), empty directories (git tracks files only) and special files (sockets, fifos, devices).
 *
 * <p>Its parts: {@link MainBranch} (reading and moving {@code main}), {@link CheckpointLookup} (a checkpoint by its
 * id, and its files), {@link TrustedIndex} (the index below and when to trust it) and {@link WorkspaceRestore}.
 *
 * <p>It keeps the session's {@link WorkspaceIndex} in memory, so a checkpoint reads only what changed. The index
 * is trusted only while {@code main} is where this object last left it: if another worker replica took checkpoints
 * of the session meanwhile (its partition moved away and back), the next checkpoint looks at the whole workspace.
 *
 * <p>Thread-safe: each operation holds this object's lock; one session's calls run one after another anyway.
 */
final class ShadowRepository implements AutoCloseable {
    private static final String SOURCE = "refs/agentbus/source";
    /**
     * The highest-precedence attributes file, for people who run {@code git} on the repository: every path is binary
     * with no filter, so a {@code .gitattributes} the agent wrote cannot make git convert what it shows or checks out.
     */
    private static final String NO_CONVERSIONS = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n";

    private final Path gitDir;
    private final MainBranch main;
    private final TrustedIndex index;
    private Repository repository;
    private boolean closed;
    /** How many files the index holds, read without the lock by the cache of open repositories. */
    private volatile int indexedFiles;

    /** @param workspace the session's workspace, or null for a repository only read from (a fork's source) */
    ShadowRepository(Path gitDir, Path workspace) {
        IsolatedJGit.install();
        this.gitDir = gitDir;
        this.main = new MainBranch(gitDir);
        this.index = new TrustedIndex(workspace);
    }

    Path gitDir() {
        return gitDir;
    }

    boolean exists() {
        return Files.isRegularFile(gitDir.resolve(Constants.HEAD));
    }

    synchronized boolean closed() {
        return closed;
    }

    /** How many files its index holds, for the cache of open repositories: never waits for a running checkpoint. */
    int indexedFiles() {
        return indexedFiles;
    }

    /** The latest checkpoint (the tip of main), if there is one. */
    synchronized Optional<String> head() throws CheckpointException {
        try {
            return exists() ? Optional.ofNullable(main.tip(open())).map(ObjectId::name) : Optional.empty();
        } catch (IOException e) {
            throw new CheckpointException("cannot read the checkpoint repository: " + e.getMessage(), e);
        }
    }

    /**
     * Records the workspace as a new checkpoint if it differs from the latest one.
     *
     * @param changed the paths the call reports it changed, or null when it cannot know (it ran a program): then
     *                the whole workspace is looked at
     * @return the new checkpoint's commit id, or empty when no file changed
     */
    synchronized Optional<String> commitIfChanged(Collection<Path> changed, String message, Instant time)
            throws CheckpointException {
        try {
            Repository repo = openOrCreate();
            main.clearStaleLock();
            ObjectId head = main.tip(repo);
            WorkspaceIndex idx = index.forHead(head);
            long stamp = FileSystemClock.now(idx.workspace(), gitDir.resolve("agentbus-clock"));
            try (ObjectInserter objects = new LooseObjects(gitDir, repo.newObjectInserter())) {
                if (changed == null) {
                    idx.scan(objects, stamp);
                } else {
                    idx.update(changed, objects, stamp);
                }
                ObjectId tree = idx.writeTree(objects);
                ObjectId headTree = head == null ? null : index.treeOf(repo, head);
                if (head == null ? tree == null : headTree.equals(tree == null ? emptyTree(objects) : tree)) {
                    index.synced(head, headTree);
                    return Optional.empty();
                }
                if (tree == null) {
                    tree = objects.insert(Constants.OBJ_TREE, new byte[0]); // every file was deleted
                }
                CommitBuilder commit = new CommitBuilder();
                PersonIdent agentbus = new PersonIdent("agentbus", "agentbus@localhost",
                        Instant.ofEpochSecond(time.getEpochSecond()), ZoneOffset.UTC);
                commit.setAuthor(agentbus);
                commit.setCommitter(agentbus);
                commit.setTreeId(tree);
                if (head != null) {
                    commit.setParentId(head);
                }
                commit.setMessage(message + "\n"); // as "git commit-tree -m" wrote it
                ObjectId id = objects.insert(commit);
                objects.flush();
                // Compare-and-swap on the branch: two writers of one session would be a bug, and this catches it.
                main.move(repo, head, id);
                index.synced(id, tree);
                return Optional.of(id.name());
            }
        } catch (Closed e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            index.forget();
            throw new CheckpointException("cannot take the checkpoint: " + e.getMessage(), e);
        } finally {
            indexedFiles = index.files();
        }
    }

    /**
     * Makes the workspace exactly the checkpoint's files: changed files are rewritten, missing ones created, files
     * that are not in the checkpoint deleted (directories named {@code .git} are left alone). Does not move main:
     * the caller records the restored state as a checkpoint of its own if it wants one.
     *
     * @return the full commit id restored, and how many files it holds
     */
    synchronized Restored restore(String checkpoint) throws CheckpointException {
        try {
            Repository repo = open();
            ObjectId commit = CheckpointLookup.resolve(repo, checkpoint);
            WorkspaceIndex idx = index.forHead(main.tip(repo));
            Map<String, WorkspaceIndex.Entry> current = new HashMap<>();
            try (ObjectInserter objects = new LooseObjects(gitDir, repo.newObjectInserter())) {
                // First the index must list every file now in the workspace: then exactly those the checkpoint does
                // not have are deleted, and a file is rewritten only where it differs.
                idx.scan(objects, FileSystemClock.now(idx.workspace(), gitDir.resolve("agentbus-clock")));
                objects.flush();
            }
            idx.forEachFile(current::put);
            Map<String, WorkspaceRestore.Target> target = CheckpointLookup.filesOf(repo, commit);
            try (ObjectReader reader = repo.newObjectReader()) {
                new WorkspaceRestore(idx.workspace(), reader).apply(current, target);
            } finally {
                idx.invalidate(); // the files written are looked at again by the next checkpoint
            }
            return new Restored(commit.name(), target.size());
        } catch (Closed e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            index.forget();
            throw new CheckpointException("cannot restore checkpoint " + checkpoint + ": " + e.getMessage(), e);
        } finally {
            indexedFiles = index.files();
        }
    }

    /**
     * Copies the other repository's checkpoints into this one (objects and history; nothing is shared afterwards,
     * so either session may be deleted later), restores {@code checkpoint} into the workspace and makes it this
     * repository's latest. {@code main} is set last, so that a fork whose restore was interrupted is done again
     * (see {@link Checkpoints#startFork}).
     */
    synchronized void startFrom(ShadowRepository source, String checkpoint) throws CheckpointException {
        try {
            Repository repo = openOrCreate();
            try (Transport transport = Transport.open(repo, new URIish(source.gitDir().toAbsolutePath().toString()))) {
                transport.setTagOpt(TagOpt.NO_TAGS);
                transport.fetch(NullProgressMonitor.INSTANCE,
                        List.of(new RefSpec("+" + MainBranch.BRANCH + ":" + SOURCE)));
            }
            Files.deleteIfExists(gitDir.resolve("FETCH_HEAD"));
        } catch (Closed e) {
            throw e;
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            throw new CheckpointException("cannot copy the checkpoints of the source session: " + e.getMessage(), e);
        }
        Restored restored = restore(checkpoint);
        try {
            main.force(repository, ObjectId.fromString(restored.commit()));
            RefUpdate source2 = repository.updateRef(SOURCE);
            source2.setForceUpdate(true);
            source2.delete();
        } catch (IOException e) {
            throw new CheckpointException("cannot record the fork's checkpoint: " + e.getMessage(), e);
        }
    }

    /** A full commit id of this repository for a checkpoint id or a unique prefix of one (at least 7 hex digits). */
    synchronized String resolve(String checkpoint) throws CheckpointException {
        try {
            return CheckpointLookup.resolve(open(), checkpoint).name();
        } catch (IOException e) {
            throw new CheckpointException("cannot read the checkpoint repository: " + e.getMessage(), e);
        }
    }

    private static ObjectId emptyTree(ObjectInserter objects) {
        return objects.idFor(Constants.OBJ_TREE, new byte[0]);
    }

    private Repository open() throws IOException, CheckpointException {
        if (closed) {
            throw new Closed();
        }
        if (repository == null) {
            if (!exists()) {
                throw new CheckpointException("this session has no checkpoints yet: no tool call has changed a file");
            }
            repository = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setBare().setMustExist(true).build();
            Files.deleteIfExists(gitDir.resolve("index.lock")); // of an earlier version's git; blocks a person's git
        }
        return repository;
    }

    private Repository openOrCreate() throws IOException, CheckpointException {
        if (closed) {
            throw new Closed();
        }
        if (repository == null && !exists()) {
            Files.createDirectories(gitDir.getParent());
            try (Repository created = newRepository()) {
                created.create(true);
            }
            Path info = Files.createDirectories(gitDir.resolve("info"));
            Files.writeString(info.resolve("attributes"), NO_CONVERSIONS, StandardCharsets.UTF_8);
        }
        return open();
    }

    /** A new bare repository whose HEAD names main, as {@code git init --bare --initial-branch=main} made it. */
    private Repository newRepository() throws IOException {
        try {
            return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setBare().setInitialBranch("main").build();
        } catch (org.eclipse.jgit.api.errors.InvalidRefNameException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (repository != null) {
            repository.close();
            repository = null;
        }
        index.forget();
    }

    /** This object was closed by the cache of open repositories while a caller held it: take a fresh one. */
    static final class Closed extends RuntimeException {
        Closed() {
            super("the checkpoint repository was closed", null, false, false);
        }
    }

    /** The outcome of a restore: the full id of the checkpoint and how many files the workspace now has. */
    record Restored(String commit, int files) {
    }
}
