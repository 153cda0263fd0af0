package dev.agentbus.sandbox.checkpointing;

import dev.agentbus.events.session.SessionEvent.SessionForked;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;

/**
 * A session's workspace over time, as the worker's runner sees it: a checkpoint after each call that may have
 * changed files, and a fork's workspace started from its source's checkpoint. Neither may cost a call or a fork
 * anything but the history itself: a failure is logged, and the call reports no checkpoint or the fork starts with an
 * empty workspace. ({@code rewind} is a tool, see {@code tools/RewindTool}.)
 */
public final class WorkspaceHistory {
    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceHistory.class);

    /** Where a session's workspace is; creates it if needed. */
    @FunctionalInterface
    public interface WorkspaceLocator {
        Path forSession(String userId, String sessionId) throws IOException;
    }

    private final Checkpoints checkpoints;
    private final WorkspaceLocator workspaces;

    public WorkspaceHistory(Checkpoints checkpoints, WorkspaceLocator workspaces) {
        this.checkpoints = checkpoints;
        this.workspaces = workspaces;
    }

    /**
     * A new fork: its workspace becomes the source's files at the fork's checkpoint. The source may belong to
     * another user (the fork's owner is the one who forked it), so its repository is found by the source state's
     * user. Done at most once per fork (see {@link Checkpoints#startFork}).
     */
    public void startFork(String userId, String sessionId, SessionForked fork) {
        if (fork.checkpoint() == null || fork.state() == null) {
            return; // forked before any call changed a file, or imported from elsewhere: the workspace starts empty
        }
        try {
            Path workspace = workspaces.forSession(userId, sessionId);
            if (checkpoints.startFork(fork.state().userId(), fork.fromSessionId(), fork.checkpoint(), userId,
                    sessionId, workspace)) {
                LOG.info("session {}: workspace restored from checkpoint {} of session {}", sessionId,
                        fork.checkpoint(), fork.fromSessionId());
            }
        } catch (IOException | CheckpointException e) {
            LOG.error("session {}: could not restore the fork's workspace from checkpoint {} of session {}: {}",
                    sessionId, fork.checkpoint(), fork.fromSessionId(), e.getMessage());
        }
    }

    /** A deleted session: its checkpoints go; a fork made earlier keeps its own copy of them. */
    public void forget(String userId, String sessionId) throws CheckpointException {
        checkpoints.forget(userId, sessionId);
    }

    /**
     * The checkpoint after a call, when it may have changed files (a failed call may have changed some too): its id,
     * or empty when nothing changed, the tool only reads, or the checkpoint could not be taken.
     *
     * @param changedPaths the paths the call reports it changed ({@code ToolOutcome.changedPaths}), or null when it
     *                     cannot know: then the whole workspace is looked at
     */
    public Optional<String> checkpointAfter(String userId, String sessionId, String toolName, String callId,
                                            Collection<Path> changedPaths) {
        if (!Checkpoints.mayChangeFiles(toolName)) {
            return Optional.empty();
        }
        try {
            return checkpoints.record(userId, sessionId, workspaces.forSession(userId, sessionId), toolName, callId,
                    changedPaths);
        } catch (IOException | CheckpointException | RuntimeException e) {
            LOG.warn("session {}: no checkpoint after {} {}: {}", sessionId, toolName, callId, e.getMessage());
            return Optional.empty();
        }
    }
}
