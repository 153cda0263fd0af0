package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.TreeFormatter;

import java.io.IOException;
import java.util.List;

/**
 * Git tree objects as git writes them. Apart from {@link WorkspaceIndex} because the format's rules (above all the
 * order of the entries) are git's and do not change with how the workspace is looked at.
 */
final class GitTrees {
    private GitTrees() {
    }

    /** One line of a tree object. */
    record TreeEntry(byte[] name, FileMode mode, ObjectId id) {
        /**
         * Git's order: by the bytes of the name, a directory's name compared as if it ended in {@code /}. Another
         * order would give another tree id for the same files, and git would call the tree corrupt.
         */
        static int compare(TreeEntry a, TreeEntry b) {
            int n = Math.min(a.name.length, b.name.length);
            for (int i = 0; i < n; i++) {
                int d = (a.name[i] & 0xff) - (b.name[i] & 0xff);
                if (d != 0) {
                    return d;
                }
            }
            return next(a, n) - next(b, n);
        }

        private static int next(TreeEntry e, int at) {
            return e.name.length > at ? e.name[at] & 0xff : e.mode == FileMode.TREE ? '/' : 0;
        }
    }

    /**
     * Stores the tree of these entries in git's order (sorting the list given); null when there are none (git has
     * no empty subtree).
     */
    static ObjectId insert(List<TreeEntry> entries, ObjectInserter objects) throws IOException {
        if (entries.isEmpty()) {
            return null;
        }
        entries.sort(TreeEntry::compare);
        TreeFormatter tree = new TreeFormatter();
        for (TreeEntry e : entries) {
            tree.append(e.name(), e.mode(), e.id());
        }
        return tree.insertTo(objects);
    }
}
