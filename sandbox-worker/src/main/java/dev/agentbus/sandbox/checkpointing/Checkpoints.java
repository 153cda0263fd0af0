package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.sandbox.workspace.Backups;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Workspace checkpoints, as Cline keeps them: after every tool call that changed files, the workspace is committed
 * to a shadow git repository of its own, and the commit id travels in the call's result
 * ({@code tool_call.completed.v1}'s {@code checkpoint}). A rewind restores the files of any checkpoint; a fork
 * starts its workspace from the source session's checkpoint.
 *
 * <p>The repositories live at {@code <workspaces root>/.checkpoints/<user id>/<session id>.git}: beside the
 * workspaces, never inside one, so the sandbox (which sees only its own workspace) cannot read or forge them, and
 * on the same volume, so any worker replica finds them. {@code .checkpoints} cannot clash with a user's directory
 * because user ids never start with a dot.
 *
 * <p>Git is written in-process ({@link ShadowRepository}, JGit): no {@code git} program is needed or started. The
 * repositories of recently active sessions stay open with their {@link WorkspaceIndex}, so a checkpoint reads only
 * what changed: after a call that reports the paths it changed (the file tools), only those are looked at; after
 * any other call, every entry is stat'ed. Past {@link #MAX_OPEN} sessions or {@link #MAX_INDEXED_FILES} files, the
 * least recently used are closed; the next checkpoint of such a session reads its whole workspace once.
 */
public final class Checkpoints {
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    /** Sessions whose repository and index stay open. */
    static final int MAX_OPEN = 256;
    /** Files indexed across the open sessions: a few hundred bytes of memory each. */
    static final int MAX_INDEXED_FILES = 250_000;

    /**
     * Tools that only read: no checkpoint is attempted after them, which saves a walk of the workspace per call.
     * Every other tool, including one this list does not know yet, gets the check (it costs time, never data).
     */
    private static final Set<String> READ_ONLY_TOOLS = Set.of("read", "ls", "glob", "grep", "download", "git_status",
            "git_diff", "git_log", "tmux_list", "tmux_read");

    private final Path root;
    private final Clock clock;
    /** Open repositories by path, least recently used first. */
    private final LinkedHashMap<Path, ShadowRepository> open = new LinkedHashMap<>(16, 0.75f, true);

    /** @param workspacesRoot the root the session workspaces are under; the repositories go in its {@code .checkpoints} */
    public Checkpoints(Path workspacesRoot, Clock clock) {
        this.root = workspacesRoot.toAbsolutePath().normalize().resolve(".checkpoints");
        this.clock = clock;
    }

    /** Where the checkpoint repositories are kept. */
    public Path root() {
        return root;
    }

    /** False for tools that only read files, after which no checkpoint can be needed. */
    public static boolean mayChangeFiles(String toolName) {
        return !READ_ONLY_TOOLS.contains(toolName);
    }

    /**
     * Called after a tool call that may have changed anything in the workspace: records the workspace as a new
     * checkpoint if any file differs from the latest one.
     *
     * @return the new checkpoint id, or empty when nothing changed
     */
    public Optional<String> record(String userId, String sessionId, Path workspace, String toolName, String callId)
            throws CheckpointException {
        return record(userId, sessionId, workspace, toolName, callId, null);
    }

    /**
     * Called after a tool call: records the workspace as a new checkpoint if any file differs from the latest one.
     *
     * @param changed the real paths the call reports it created, changed or deleted (a directory stands for all
     *                under it), when it knows them exactly; null when it does not (it ran a program), and then every
     *                entry of the workspace is looked at
     * @return the new checkpoint id, or empty when nothing changed
     */
    public Optional<String> record(String userId, String sessionId, Path workspace, String toolName, String callId,
                                   Collection<Path> changed) throws CheckpointException {
        Path gitDir = repositoryPath(userId, sessionId);
        String message = "after " + toolName + " " + callId + "\n\nsession " + sessionId;
        return withRepository(gitDir, workspace, repo -> repo.commitIfChanged(changed, message, clock.instant()));
    }

    /**
     * Rewind: makes the workspace exactly the files of {@code checkpoint} (an id from this session's log, or of the
     * session it was forked from up to the fork). It does not record a checkpoint itself: like any call that changes
     * files, the rewind is checkpointed afterwards with {@link #record}, so it can be undone by rewinding to the
     * checkpoint before it.
     */
    public Rewound rewind(String userId, String sessionId, Path workspace, String checkpoint)
            throws CheckpointException {
        Path gitDir = repositoryPath(userId, sessionId);
        return withRepository(gitDir, workspace, repo -> {
            if (!repo.exists() || repo.head().isEmpty()) {
                throw new CheckpointException("this session has no checkpoints yet: no tool call has changed a file");
            }
            ShadowRepository.Restored restored = repo.restore(checkpoint);
            return new Rewound(restored.commit(), restored.files());
        });
    }

    /**
     * A fork's workspace: copies the source session's checkpoints into the fork's own shadow repository and restores
     * {@code checkpoint} into the fork's (empty) workspace. Done once: if the fork's repository already has
     * checkpoints (this event was delivered again after a restart), nothing is touched, because by then the fork may
     * have changed its files. An interrupted restore is done again, since the fork's branch is set last.
     *
     * @return true when the workspace was restored now, false when it had been already
     */
    public boolean startFork(String fromUserId, String fromSessionId, String checkpoint, String userId,
                             String sessionId, Path workspace) throws CheckpointException {
        Path sourceDir = repositoryPath(fromUserId, fromSessionId);
        Path gitDir = repositoryPath(userId, sessionId);
        return withRepository(gitDir, workspace, fork -> {
            if (fork.exists() && fork.head().isPresent()) {
                return false;
            }
            ShadowRepository source = new ShadowRepository(sourceDir, null);
            if (!source.exists()) {
                throw new CheckpointException("the source session " + fromSessionId + " has no checkpoints on this "
                        + "worker's volume; the fork starts with an empty workspace");
            }
            fork.startFrom(source, checkpoint);
            return true;
        });
    }

    /** The latest checkpoint of a session, if it has any. */
    public Optional<String> latest(String userId, String sessionId, Path workspace) throws CheckpointException {
        return withRepository(repositoryPath(userId, sessionId), workspace, ShadowRepository::head);
    }

    /** A deleted session: its repository is closed and removed with all its checkpoints. */
    public void forget(String userId, String sessionId) throws CheckpointException {
        Path gitDir = repositoryPath(userId, sessionId);
        ShadowRepository repository;
        synchronized (this) {
            repository = open.remove(gitDir);
        }
        if (repository != null) {
            repository.close();
        }
        try {
            Backups.deleteTree(gitDir);
        } catch (IOException e) {
            throw new CheckpointException("could not remove the checkpoints of session " + sessionId + ": " + e);
        }
    }

    private interface Operation<T> {
        T on(ShadowRepository repository) throws CheckpointException;
    }

    private <T> T withRepository(Path gitDir, Path workspace, Operation<T> operation) throws CheckpointException {
        while (true) {
            ShadowRepository repository = repository(gitDir, workspace);
            try {
                return operation.on(repository);
            } catch (ShadowRepository.Closed evictedMeanwhile) {
                // closed by trim() between our taking it and using it: take a fresh one
            } finally {
                trim(repository);
            }
        }
    }

    private synchronized ShadowRepository repository(Path gitDir, Path workspace) {
        ShadowRepository repository = open.get(gitDir);
        if (repository == null || repository.closed()) {
            repository = new ShadowRepository(gitDir, workspace);
            open.put(gitDir, repository);
        }
        return repository;
    }

    /**
     * Closes the least recently used repositories beyond the limits, never the one just used. They are closed on
     * a virtual thread of their own: a repository in the middle of a checkpoint is closed when that is done.
     */
    private void trim(ShadowRepository justUsed) {
        List<ShadowRepository> evicted = new ArrayList<>();
        synchronized (this) {
            long files = open.values().stream().mapToLong(ShadowRepository::indexedFiles).sum();
            Iterator<Map.Entry<Path, ShadowRepository>> eldest = open.entrySet().iterator();
            while ((open.size() > MAX_OPEN || files > MAX_INDEXED_FILES) && eldest.hasNext()) {
                ShadowRepository candidate = eldest.next().getValue();
                if (candidate == justUsed) {
                    continue;
                }
                files -= candidate.indexedFiles();
                eldest.remove();
                evicted.add(candidate);
            }
        }
        evicted.forEach(repository -> Thread.ofVirtual().start(repository::close));
    }

    private Path repositoryPath(String userId, String sessionId) throws CheckpointException {
        // The same rule as the workspaces: a crafted id must not name a path outside the root.
        if (userId == null || sessionId == null || !SAFE_ID.matcher(userId).matches()
                || !SAFE_ID.matcher(sessionId).matches() || userId.contains("..") || sessionId.contains("..")) {
            throw new CheckpointException("unsafe user or session id: " + userId + "/" + sessionId);
        }
        return root.resolve(userId).resolve(sessionId + ".git");
    }

    /**
     * A finished rewind.
     *
     * @param restored the full id of the checkpoint whose files the workspace now has
     * @param files    how many files that is
     */
    public record Rewound(String restored, int files) {
    }
}
