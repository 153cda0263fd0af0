package dev.agentbus.sandbox.sandboxing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Which host user a sandbox's processes are, and so who owns the files they create in the workspace. Never root:
 * a root-owned file made in the sandbox (say, a shell with the setuid bit) would be a way up for anyone on the
 * host who can reach the workspace.
 *
 * <ul>
 *   <li>The worker is not root: the sandbox runs as the owner of the workspace (normally the worker itself), so
 *       files written by the file tools and by commands belong to the same user.</li>
 *   <li>The worker is root: the sandbox runs as uid/gid {@value #SANDBOX_ID} (the Docker image's {@code sandbox}
 *       user), and a workspace still owned by root is handed to it when its sandbox is created. Files the file
 *       tools write later are root's, readable but not writable in place by the sandbox (see docs/sandbox.md).</li>
 * </ul>
 */
record WorkspaceOwner(int uid, int gid) {
    static final int SANDBOX_ID = 1000;

    /** {@code uid:gid}, as Docker wants it. */
    String user() {
        return uid + ":" + gid;
    }

    /** The owner the sandbox of {@code workspace} runs as; hands a root-owned workspace to the sandbox user. */
    static WorkspaceOwner prepare(Path workspace) throws SandboxException {
        try {
            int uid = (Integer) Files.getAttribute(workspace, "unix:uid");
            int gid = (Integer) Files.getAttribute(workspace, "unix:gid");
            if (uid != 0) {
                return new WorkspaceOwner(uid, gid == 0 ? uid : gid);
            }
            try (Stream<Path> files = Files.walk(workspace)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.setAttribute(file, "unix:uid", SANDBOX_ID, LinkOption.NOFOLLOW_LINKS);
                    Files.setAttribute(file, "unix:gid", SANDBOX_ID, LinkOption.NOFOLLOW_LINKS);
                }
            }
            return new WorkspaceOwner(SANDBOX_ID, SANDBOX_ID);
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            throw new SandboxException("could not prepare the workspace's owner for the sandbox: " + e, e);
        }
    }
}
