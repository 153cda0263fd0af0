package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.WorkspacePaths;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A session's {@link WorkspaceIndex} and the checkpoint it was last brought up to date with. Apart from
 * {@link ShadowRepository} because when the index may be trusted is one rule, kept in one place: only while
 * {@code main} is where this worker last left it, and never after a failure midway.
 *
 * <p>Not thread-safe: used under the {@link ShadowRepository}'s lock.
 */
final class TrustedIndex {
    private final Path workspace;
    private WorkspaceIndex index;
    /** The tip of {@code main} the index was last brought up to date with, and its tree; null before. */
    private ObjectId indexedHead;
    private ObjectId indexedHeadTree;

    /** @param workspace the session's workspace (its real path is taken when the index is first needed) */
    TrustedIndex(Path workspace) {
        this.workspace = workspace;
    }

    /** The index for a repository whose main is at {@code head}: looked at whole again if someone else moved it. */
    WorkspaceIndex forHead(ObjectId head) throws IOException {
        if (index == null) {
            // The same host path the tools report their changes under; the workspace itself is never followed.
            index = new WorkspaceIndex(WorkspacePaths.open(workspace).root());
        } else if (head == null ? indexedHead != null : !head.equals(indexedHead)) {
            index.invalidate();
        }
        return index;
    }

    /** The index now stands for checkpoint {@code head}, whose tree is {@code tree}. */
    void synced(ObjectId head, ObjectId tree) {
        indexedHead = head;
        indexedHeadTree = tree;
    }

    /** After a failure midway, nothing the index says is certain: the next checkpoint starts from nothing. */
    void forget() {
        index = null;
        indexedHead = null;
        indexedHeadTree = null;
    }

    /** The tree of a commit; without reading it when it is the one the index was synced with. */
    ObjectId treeOf(Repository repo, ObjectId commit) throws IOException {
        if (commit.equals(indexedHead) && indexedHeadTree != null) {
            return indexedHeadTree;
        }
        try (RevWalk walk = new RevWalk(repo)) {
            return walk.parseCommit(commit).getTree().copy();
        }
    }

    /** How many files the index holds; 0 when there is none. */
    int files() {
        return index == null ? 0 : index.files();
    }
}
