package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Finds a checkpoint by the id (or prefix) a user or model gave, and lists its files. Apart from
 * {@link ShadowRepository} because these are reads with their own error messages, the ones a user sees when a
 * rewind or fork names a checkpoint that is not there.
 */
final class CheckpointLookup {
    private static final Pattern COMMIT_PREFIX = Pattern.compile("[0-9a-f]{7,64}");

    private CheckpointLookup() {
    }

    /** The commit of a checkpoint id or of a unique prefix of one (at least 7 hex digits). */
    static ObjectId resolve(Repository repo, String checkpoint) throws CheckpointException, IOException {
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
    static Map<String, WorkspaceRestore.Target> filesOf(Repository repo, ObjectId commit) throws IOException {
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
}
