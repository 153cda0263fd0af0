package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.treewalk.TreeWalk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

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
 * <p>It keeps the session's {@link WorkspaceIndex} in memory, so a checkpoint reads only what changed. The index
 * is trusted only while {@code main} is where this object last left it: if another worker replica took checkpoints
 * of the session meanwhile (its partition moved away and back), the next checkpoint looks at the whole workspace.
 *
 * <p>Thread-safe: each operation holds this object's lock; one session's calls run one after another anyway.
 */
final class ShadowRepository implements AutoCloseable {
    static final String BRANCH = Constants.R_HEADS + "main";
    private static final String SOURCE = "refs/agentbus/source";
    private static final Pattern COMMIT_PREFIX = Pattern.compile("[0-9a-f]{7,64}");
    /**
     * The highest-precedence attributes file, for people who run {@code git} on the repository: every path is binary
     * with no filter, so a {@code .gitattributes} the agent wrote cannot make git convert what it shows or checks out.
     */
    private static final String NO_CONVERSIONS = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n";
    private static final Set<RefUpdate.Result> UPDATED = Set.of(RefUpdate.Result.NEW, RefUpdate.Result.FORCED,
            RefUpdate.Result.FAST_FORWARD, RefUpdate.Result.NO_CHANGE);

    private final Path gitDir;
    private final Path workspace;
    private Repository repository;
    private WorkspaceIndex index;
    /** The tip of {@code main} the index was last brought up to date with, and its tree; null before. */
    private ObjectId indexedHead;
    private ObjectId indexedHeadTree;
    private boolean closed;
    /** How many files the index holds, read without the lock by the cache of open repositories. */
    private volatile int indexedFiles;

    /** @param workspace the session's workspace, or null for a repository only read from (a fork's source) */
    ShadowRepository(Path gitDir, Path workspace) {
        IsolatedJGit.install();
        this.gitDir = gitDir;
        this.workspace = workspace;
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
            return exists() ? Optional.ofNullable(tip(open())).map(ObjectId::name) : Optional.empty();
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
            clearStaleLocks();
            ObjectId head = tip(repo);
            WorkspaceIndex idx = indexFor(head);
            long stamp = FileSystemClock.now(idx.workspace(), gitDir.resolve("agentbus-clock"));
            try (ObjectInserter objects = new LooseObjects(gitDir, repo.newObjectInserter())) {
                if (changed == null) {
                    idx.scan(objects, stamp);
                } else {
                    idx.update(changed, objects, stamp);
                }
                ObjectId tree = idx.writeTree(objects);
                ObjectId headTree = head == null ? null : treeOf(repo, head);
                if (head == null ? tree == null : headTree.equals(tree == null ? emptyTree(objects) : tree)) {
                    synced(head, headTree);
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
                moveBranch(repo, head, id);
                synced(id, tree);
                return Optional.of(id.name());
            }
        } catch (Closed e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            forgetIndex();
            throw new CheckpointException("cannot take the checkpoint: " + e.getMessage(), e);
        } finally {
            indexedFiles = index == null ? 0 : index.files();
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
            ObjectId commit = resolve(repo, checkpoint);
            WorkspaceIndex idx = indexFor(tip(repo));
            Map<String, WorkspaceIndex.Entry> current = new HashMap<>();
            try (ObjectInserter objects = new LooseObjects(gitDir, repo.newObjectInserter())) {
                // First the index must list every file now in the workspace: then exactly those the checkpoint does
                // not have are deleted, and a file is rewritten only where it differs.
                idx.scan(objects, FileSystemClock.now(idx.workspace(), gitDir.resolve("agentbus-clock")));
                objects.flush();
            }
            idx.forEachFile(current::put);
            Map<String, WorkspaceRestore.Target> target = filesOf(repo, commit);
            try (ObjectReader reader = repo.newObjectReader()) {
                new WorkspaceRestore(idx.workspace(), reader).apply(current, target);
            } finally {
                idx.invalidate(); // the files written are looked at again by the next checkpoint
            }
            return new Restored(commit.name(), target.size());
        } catch (Closed e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            forgetIndex();
            throw new CheckpointException("cannot restore checkpoint " + checkpoint + ": " + e.getMessage(), e);
        } finally {
            indexedFiles = index == null ? 0 : index.files();
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
                transport.fetch(NullProgressMonitor.INSTANCE, List.of(new RefSpec("+" + BRANCH + ":" + SOURCE)));
            }
            Files.deleteIfExists(gitDir.resolve("FETCH_HEAD"));
        } catch (Closed e) {
            throw e;
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            throw new CheckpointException("cannot copy the checkpoints of the source session: " + e.getMessage(), e);
        }
        Restored restored = restore(checkpoint);
        try {
            RefUpdate main = repository.updateRef(BRANCH);
            main.setNewObjectId(ObjectId.fromString(restored.commit()));
            main.setForceUpdate(true);
            check(main.update(), BRANCH);
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
            return resolve(open(), checkpoint).name();
        } catch (IOException e) {
            throw new CheckpointException("cannot read the checkpoint repository: " + e.getMessage(), e);
        }
    }

    private ObjectId resolve(Repository repo, String checkpoint) throws CheckpointException, IOException {
        if (checkpoint == null || !COMMIT_PREFIX.matcher(checkpoint).matches()) {
            throw new CheckpointException("not a checkpoint id: " + checkpoint
                    + " (expected 7 to 40 hexadecimal digits, as in tool_call.completed.v1's checkpoint)");
        }
        if (checkpoint.length() > Constants.OBJECT_ID_STRING_LENGTH) {
            throw new CheckpointException("no checkpoint " + checkpoint + " in this session");
        }
        try (ObjectReader reader = repo.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
            Collection<ObjectId> candidates = reader.resolve(AbbreviatedObjectId.fromString(checkpoint));
            if (candidates.size() != 1) {
                throw new CheckpointException("no checkpoint " + checkpoint + " in this session"
                        + (candidates.isEmpty() ? "" : " (the prefix names more than one object; give more digits)"));
            }
            RevObject object = walk.peel(walk.parseAny(candidates.iterator().next()));
            if (!(object instanceof RevCommit commit)) {
                throw new CheckpointException("no checkpoint " + checkpoint + " in this session");
            }
            return commit.copy();
        } catch (MissingObjectException e) {
            throw new CheckpointException("no checkpoint " + checkpoint + " in this session", e);
        }
    }

    /** Every file of a checkpoint by its {@code /}-separated path. */
    private static Map<String, WorkspaceRestore.Target> filesOf(Repository repo, ObjectId commit) throws IOException {
        Map<String, WorkspaceRestore.Target> files = new LinkedHashMap<>();
        try (RevWalk walk = new RevWalk(repo); TreeWalk tree = new TreeWalk(repo)) {
            tree.addTree(walk.parseCommit(commit).getTree());
            tree.setRecursive(true);
            while (tree.next()) {
                files.put(tree.getPathString(),
                        new WorkspaceRestore.Target(tree.getFileMode(0), tree.getObjectId(0)));
            }
        }
        return files;
    }

    /** The index for a repository whose main is at {@code head}: looked at whole again if someone else moved it. */
    private WorkspaceIndex indexFor(ObjectId head) throws IOException {
        if (index == null) {
            index = new WorkspaceIndex(workspace.toRealPath());
        } else if (head == null ? indexedHead != null : !head.equals(indexedHead)) {
            index.invalidate();
        }
        return index;
    }

    private void synced(ObjectId head, ObjectId tree) {
        indexedHead = head;
        indexedHeadTree = tree;
    }

    /** After a failure midway, nothing the index says is certain: the next checkpoint starts from nothing. */
    private void forgetIndex() {
        index = null;
        indexedHead = null;
        indexedHeadTree = null;
    }

    private ObjectId treeOf(Repository repo, ObjectId commit) throws IOException {
        if (commit.equals(indexedHead) && indexedHeadTree != null) {
            return indexedHeadTree;
        }
        try (RevWalk walk = new RevWalk(repo)) {
            return walk.parseCommit(commit).getTree().copy();
        }
    }

    private static ObjectId emptyTree(ObjectInserter objects) {
        return objects.idFor(Constants.OBJ_TREE, new byte[0]);
    }

    /**
     * The tip of main, read from its file as git keeps it ({@code refs/heads/main}, the id and a newline); only a
     * branch packed into {@code packed-refs} (by a person's {@code git gc}) is looked up through JGit.
     */
    private ObjectId tip(Repository repo) throws IOException {
        try {
            String content = Files.readString(gitDir.resolve(BRANCH), StandardCharsets.US_ASCII).strip();
            if (ObjectId.isId(content)) {
                return ObjectId.fromString(content);
            }
        } catch (java.nio.file.NoSuchFileException packedOrNone) {
            // below
        }
        Ref main = repo.exactRef(BRANCH);
        return main == null ? null : main.getObjectId();
    }

    /**
     * Moves main from {@code expected} to {@code to} as git does: the new id is written to {@code main.lock} (made
     * only if no one holds it), main is read again under the lock and must still be {@code expected}, then the
     * lock is renamed over it. Written directly, at a quarter of what JGit's ref update costs (it also parses both
     * commits and checks the reflog settings).
     */
    private void moveBranch(Repository repo, ObjectId expected, ObjectId to) throws IOException {
        Path ref = gitDir.resolve(BRANCH);
        Path lock = gitDir.resolve(BRANCH + ".lock");
        Files.createDirectories(ref.getParent());
        Files.writeString(lock, to.name() + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE);
        try {
            ObjectId now = tip(repo);
            if (now == null ? expected != null : !now.equals(expected)) {
                throw new IOException("could not move " + BRANCH + ": it is at " + now + ", not " + expected
                        + "; was it changed by someone else?");
            }
            Files.move(lock, ref, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(lock);
        }
    }

    private static void check(RefUpdate.Result result, String ref) throws IOException {
        if (!UPDATED.contains(result)) {
            throw new IOException("could not move " + ref + " (" + result + "): was it changed by someone else?");
        }
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

    /**
     * A lock on main left by a worker killed in the middle of an update. Nothing else can hold it: one session's
     * calls run one after another on one worker, so a lock seen before a checkpoint is always stale.
     */
    private void clearStaleLocks() throws IOException {
        Files.deleteIfExists(gitDir.resolve(BRANCH + ".lock"));
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (repository != null) {
            repository.close();
            repository = null;
        }
        index = null;
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
