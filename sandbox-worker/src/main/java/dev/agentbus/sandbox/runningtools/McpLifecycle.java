package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.sandbox.mcp.McpSessions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * When the sessions' MCP servers start, are listed again and stop, as the session log and the calls go by. Apart
 * from {@link ToolRunner} so that the runner need not know whether there are MCP servers at all: without any (some
 * tests), every method here does nothing.
 */
final class McpLifecycle {
    /** The runner's logger, as before this class was split off: log settings that name it keep working. */
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

    /** The sessions' MCP servers; null when the runner has none. */
    private final McpSessions mcp;
    private final Workspaces workspaces;
    private final CallReports reports;
    /** Wakes the loop, so a listing is recorded without waiting for the poll's time-out. */
    private final Runnable wake;

    McpLifecycle(McpSessions mcp, Workspaces workspaces, CallReports reports, Runnable wake) {
        this.mcp = mcp;
        this.workspaces = workspaces;
        this.reports = reports;
        this.wake = wake;
    }

    /**
     * A new session (or fork): its MCP servers are started and listed off the loop's thread (starting one may take
     * seconds), and the listing is recorded at the next iteration. A session without any configured is not
     * listed at all, so its log stays as it was before MCP existed.
     */
    void sessionStarted(EventEnvelope envelope) {
        if (mcp == null) {
            return;
        }
        if (!mcp.hasServersBeyondWorkspace(envelope.userId()) && !Files.isDirectory(
                workspaces.root().resolve(envelope.userId()).resolve(envelope.sessionId()))) {
            return; // no servers of the team or the user, no workspace (so no .mcp.json) yet: nothing to start
        }
        Thread.ofVirtual().name("mcp-start-" + envelope.sessionId()).start(() -> {
            try {
                Path workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
                if (mcp.configured(envelope.userId(), workspace)) {
                    mcp.start(envelope.userId(), envelope.sessionId(), workspace, envelope.id());
                    wake.run();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("session {}: its MCP servers could not be started: {}", envelope.sessionId(), e.toString());
            }
        });
    }

    /** The MCP listings waiting to be recorded; before the results, so a new tool is known to the next model call. */
    void reportListings(Outbox out) {
        if (mcp == null) {
            return;
        }
        for (McpSessions.Listing l : mcp.takeListings()) {
            out.send(reports.input(l.sessionId(), l.userId(), l.causationId(),
                    new SessionInput.RecordMcpTools(l.servers()), TraceHeaders.newTrace()));
        }
    }

    /** After a call that may have changed files: its {@code .mcp.json} may name other servers now. */
    void workspaceMayHaveChanged(TakenCall call) {
        if (mcp == null) {
            return;
        }
        try {
            mcp.workspaceMayHaveChanged(call.userId(), call.sessionId(),
                    workspaces.forSession(call.userId(), call.sessionId()), call.cause().id());
        } catch (IOException | RuntimeException e) {
            LOG.warn("session {}: its MCP servers could not be listed again: {}", call.sessionId(), e.toString());
        }
    }

    /** The session was deleted or moved to another worker: its servers go. */
    void stop(String sessionId) {
        if (mcp != null) {
            mcp.stop(sessionId);
        }
    }

    void close() {
        if (mcp != null) {
            mcp.close();
        }
    }
}
