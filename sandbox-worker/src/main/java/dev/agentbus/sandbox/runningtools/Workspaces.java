package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.workspace.WorkspaceDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where a session's files live: {@code <root>/<user id>/<session id>}. One directory per user keeps tenants apart;
 * ids are checked so a crafted id cannot point elsewhere.
 */
final class Workspaces {
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final Path root;

    public Workspaces(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path forSession(String userId, String sessionId) throws IOException {
        if (!isSafe(userId) || !isSafe(sessionId) || sessionId.contains("..") || userId.contains("..")) {
            throw new IOException("unsafe user or session id: " + userId + "/" + sessionId);
        }
        Path dir = root.resolve(userId).resolve(sessionId);
        Files.createDirectories(dir);
        return dir;
    }

    /** Removes a session's workspace with everything in it, if it is there. */
    public void delete(String userId, String sessionId) throws IOException {
        if (!isSafe(userId) || !isSafe(sessionId) || sessionId.contains("..") || userId.contains("..")) {
            throw new IOException("unsafe user or session id: " + userId + "/" + sessionId);
        }
        Path dir = root.resolve(userId).resolve(sessionId);
        if (Files.isDirectory(dir.getParent(), LinkOption.NOFOLLOW_LINKS)) {
            // Through handles: a program left running in the sandbox must not steer the delete onto host files.
            WorkspaceDir.deleteTree(dir.getParent(), sessionId);
        }
    }

    private static boolean isSafe(String id) {
        return id != null && SAFE_ID.matcher(id).matches();
    }
}
