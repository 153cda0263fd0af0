package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.checkpointing.CheckpointException;
import dev.agentbus.sandbox.checkpointing.WorkspaceHistory;
import dev.agentbus.sandbox.tools.ToolExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions this worker holds resources for (a sandbox, MCP servers, a workspace and checkpoints) and when those
 * go: on giving the session's partition away, or once a deleted session has no call left here. Apart from
 * {@link ToolRunner} because freeing resources changes for other reasons than running and reporting calls.
 */
final class SessionsHere {
    /** The runner's logger, as before this class was split off: log settings that name it keep working. */
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

    private final CallQueue queue;
    private final ToolExecutor executor;
    private final WorkspaceHistory history;
    private final Workspaces workspaces;
    private final McpLifecycle mcp;
    /** The sessions this worker ran calls for, by id: their owner and partition, to free their sandboxes on revoke. */
    private final Map<String, Owner> sessions = new ConcurrentHashMap<>();
    /** Deleted sessions whose files go once their last call is reported: session id to owner; loop thread only. */
    private final Map<String, String> toRemove = new LinkedHashMap<>();

    private record Owner(String userId, int partition) {
    }

    SessionsHere(CallQueue queue, ToolExecutor executor, WorkspaceHistory history, Workspaces workspaces,
                 McpLifecycle mcp) {
        this.queue = queue;
        this.executor = executor;
        this.history = history;
        this.workspaces = workspaces;
        this.mcp = mcp;
    }

    /** A call of the session is queued here: its sandbox is this worker's to free. */
    void calledHere(TakenCall call) {
        sessions.put(call.sessionId(), new Owner(call.userId(), call.partition()));
    }

    /**
     * The session was deleted: its files go once no call of it is left here (a command being killed still reports,
     * and its checkpoint would otherwise bring the repository back).
     */
    void deleted(String sessionId, String userId) {
        toRemove.put(sessionId, userId);
    }

    /**
     * The sandbox, workspace and checkpoints of each deleted session with no call left here. Removing them again
     * changes nothing, so a worker that re-reads the event after a restart simply does it again.
     */
    void removeDeleted() {
        toRemove.entrySet().removeIf(e -> {
            String sessionId = e.getKey();
            if (queue.holdsSession(sessionId)) {
                return false;
            }
            sessions.remove(sessionId);
            executor.releaseSandbox(e.getValue(), sessionId);
            try {
                history.forget(e.getValue(), sessionId);
                workspaces.delete(e.getValue(), sessionId);
                LOG.info("session {} was deleted: its sandbox, workspace and checkpoints are removed", sessionId);
            } catch (IOException | CheckpointException failed) {
                LOG.error("session {} was deleted, but its files could not all be removed: {}", sessionId,
                        failed.getMessage());
            }
            return true;
        });
    }

    /**
     * Another worker takes these sessions on from their recorded shell state. A sandbox left here would be behind
     * the log if a session came back later, so it goes now.
     */
    void release(Set<Integer> leaving) {
        sessions.entrySet().removeIf(e -> {
            if (!leaving.contains(e.getValue().partition())) {
                return false;
            }
            executor.releaseSandbox(e.getValue().userId(), e.getKey());
            mcp.stop(e.getKey());
            return true;
        });
    }
}
