package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The branch {@code main} of a shadow repository, the chain of a session's checkpoints: read and moved directly in
 * its file, as git keeps it. Apart from {@link ShadowRepository} because the locking rules of a ref (and why they
 * are safe here) are their own concern.
 */
final class MainBranch {
    static final String BRANCH = Constants.R_HEADS + "main";
    private static final Set<RefUpdate.Result> UPDATED = Set.of(RefUpdate.Result.NEW, RefUpdate.Result.FORCED,
            RefUpdate.Result.FAST_FORWARD, RefUpdate.Result.NO_CHANGE);

    private final Path gitDir;

    MainBranch(Path gitDir) {
        this.gitDir = gitDir;
    }

    /**
     * The tip of main, read from its file as git keeps it ({@code refs/heads/main}, the id and a newline); only a
     * branch packed into {@code packed-refs} (by a person's {@code git gc}) is looked up through JGit.
     */
    ObjectId tip(Repository repo) throws IOException {
        try {
            String content = Files.readString(gitDir.resolve(BRANCH), StandardCharsets.US_ASCII).strip();
            if (ObjectId.isId(content)) {
                return ObjectId.fromString(content);
            }
        } catch (NoSuchFileException packedOrNone) {
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
    void move(Repository repo, ObjectId expected, ObjectId to) throws IOException {
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

    /** Sets main to {@code to} whatever it was (a fork's first checkpoint), through JGit. */
    void force(Repository repo, ObjectId to) throws IOException {
        RefUpdate main = repo.updateRef(BRANCH);
        main.setNewObjectId(to);
        main.setForceUpdate(true);
        check(main.update(), BRANCH);
    }

    static void check(RefUpdate.Result result, String ref) throws IOException {
        if (!UPDATED.contains(result)) {
            throw new IOException("could not move " + ref + " (" + result + "): was it changed by someone else?");
        }
    }

    /**
     * A lock on main left by a worker killed in the middle of an update. Nothing else can hold it: one session's
     * calls run one after another on one worker, so a lock seen before a checkpoint is always stale.
     */
    void clearStaleLock() throws IOException {
        Files.deleteIfExists(gitDir.resolve(BRANCH + ".lock"));
    }
}
