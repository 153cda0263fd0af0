package dev.agentbus.sandbox.checkpointing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
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
 * <p>Git runs on the worker host (see {@link Git} for how it is kept clean). Without git, checkpoints are off:
 * calls still run and report no checkpoint; rewinds and fork restores fail with a message saying so.
 */
public final class Checkpoints {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpoints.class);
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /**
     * Tools that only read: no checkpoint is attempted after them, which saves a walk of the workspace per call.
     * Every other tool, including one this list does not know yet, gets the check (it costs time, never data).
     */
    private static final Set<String> READ_ONLY_TOOLS = Set.of("read", "ls", "glob", "grep", "download", "git_status",
            "git_diff", "git_log", "tmux_list", "tmux_read");

    private final Path root;
    private final Git git;
    private final Clock clock;
    private final boolean available;

    /**
     * @param workspacesRoot the root the session workspaces are under; the repositories go in its {@code .checkpoints}
     * @param gitExecutable  the git program: a path, or a name looked up on {@code /usr/local/bin:/usr/bin:/bin}
     */
    public Checkpoints(Path workspacesRoot, String gitExecutable, Clock clock) {
        this.root = workspacesRoot.toAbsolutePath().normalize().resolve(".checkpoints");
        this.git = new Git(gitExecutable);
        this.clock = clock;
        this.available = git.available();
        if (!available) {
            LOG.error("git ({}) cannot be run: workspace checkpoints are off, and rewind and fork restores will "
                    + "fail. Install git (apt-get install git) or set agentbus.sandbox.git.", gitExecutable);
        }
    }

    public boolean available() {
        return available;
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
     * Called after a tool call: records the workspace as a new checkpoint if any file differs from the latest one.
     *
     * @return the new checkpoint id, or empty when nothing changed (or checkpoints are off)
     */
    public Optional<String> record(String userId, String sessionId, Path workspace, String toolName, String callId)
            throws CheckpointException {
        if (!available) {
            return Optional.empty();
        }
        return repository(userId, sessionId, workspace).commitIfChanged("after " + toolName + " " + callId
                + "\n\nsession " + sessionId, clock.instant());
    }

    /**
     * Rewind: makes the workspace exactly the files of {@code checkpoint} (an id from this session's log, or of the
     * session it was forked from up to the fork). It does not record a checkpoint itself: like any call that changes
     * files, the rewind is checkpointed afterwards with {@link #record}, so it can be undone by rewinding to the
     * checkpoint before it.
     */
    public Rewound rewind(String userId, String sessionId, Path workspace, String checkpoint)
            throws CheckpointException {
        requireGit();
        ShadowRepository repo = repository(userId, sessionId, workspace);
        if (!repo.exists() || repo.head().isEmpty()) {
            throw new CheckpointException("this session has no checkpoints yet: no tool call has changed a file");
        }
        ShadowRepository.Restored restored = repo.restore(checkpoint);
        return new Rewound(restored.commit(), restored.files());
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
        requireGit();
        ShadowRepository fork = repository(userId, sessionId, workspace);
        if (fork.exists() && fork.head().isPresent()) {
            return false;
        }
        ShadowRepository source = new ShadowRepository(git, repositoryPath(fromUserId, fromSessionId), null);
        if (!source.exists()) {
            throw new CheckpointException("the source session " + fromSessionId + " has no checkpoints on this "
                    + "worker's volume; the fork starts with an empty workspace");
        }
        fork.startFrom(source, checkpoint);
        return true;
    }

    /** The latest checkpoint of a session, if it has any. */
    public Optional<String> latest(String userId, String sessionId, Path workspace) throws CheckpointException {
        return available ? repository(userId, sessionId, workspace).head() : Optional.empty();
    }

    private ShadowRepository repository(String userId, String sessionId, Path workspace) throws CheckpointException {
        return new ShadowRepository(git, repositoryPath(userId, sessionId), workspace);
    }

    private Path repositoryPath(String userId, String sessionId) throws CheckpointException {
        // The same rule as the workspaces: a crafted id must not name a path outside the root.
        if (userId == null || sessionId == null || !SAFE_ID.matcher(userId).matches()
                || !SAFE_ID.matcher(sessionId).matches() || userId.contains("..") || sessionId.contains("..")) {
            throw new CheckpointException("unsafe user or session id: " + userId + "/" + sessionId);
        }
        return root.resolve(userId).resolve(sessionId + ".git");
    }

    private void requireGit() throws CheckpointException {
        if (!available) {
            throw new CheckpointException("workspace checkpoints are off on this worker: git cannot be run");
        }
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
