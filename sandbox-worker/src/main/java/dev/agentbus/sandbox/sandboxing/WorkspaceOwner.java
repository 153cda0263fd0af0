package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.workspace.AtomicFiles;

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
 *   <li>The worker is root: the sandbox runs as the configured sandbox uid ({@code agentbus.sandbox.docker-uid},
 *       64100 by default), one no account of the host has (checked at start, {@link HostAccounts}), so a process
 *       that escapes its container is nobody on the host. A workspace owned by anyone else (root, or uid 1000 from
 *       before issue 28) is handed to it when its sandbox is created. Files the file tools write later take the
 *       owner of the directory they are written into (see docs/sandbox.md).</li>
 * </ul>
 */
record WorkspaceOwner(int uid, int gid) {
    /** The uid a pod runs as, and the one bubblewrap's commands see (mapped to the worker's own uid). */
    static final int SANDBOX_ID = 1000;

    /** {@code uid:gid}, as Docker wants it. */
    String user() {
        return uid + ":" + gid;
    }

    /** As {@link #prepare(Path, int)} with {@link #SANDBOX_ID}: pods run on other machines than the worker's. */
    static WorkspaceOwner prepare(Path workspace) throws SandboxException {
        return prepare(workspace, SANDBOX_ID);
    }

    /** The owner the sandbox of {@code workspace} runs as; a root worker hands the workspace to {@code sandboxUid}. */
    static WorkspaceOwner prepare(Path workspace, int sandboxUid) throws SandboxException {
        try {
            int uid = (Integer) Files.getAttribute(workspace, "unix:uid");
            int gid = (Integer) Files.getAttribute(workspace, "unix:gid");
            if (uid != 0 && (uid == sandboxUid || !AtomicFiles.workerIsRoot())) {
                return new WorkspaceOwner(uid, gid == 0 ? uid : gid);
            }
            try (Stream<Path> files = Files.walk(workspace)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.setAttribute(file, "unix:uid", sandboxUid, LinkOption.NOFOLLOW_LINKS);
                    Files.setAttribute(file, "unix:gid", sandboxUid, LinkOption.NOFOLLOW_LINKS);
                }
            }
            return new WorkspaceOwner(sandboxUid, sandboxUid);
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            throw new SandboxException("could not prepare the workspace's owner for the sandbox: " + e, e);
        }
    }
}
