package dev.agentbus.sandbox.runningtools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.sandbox.tools.ToolOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A call's tool run by the {@link ToolExecutor} in the session's workspace, its sandbox restored from the shell state
 * the request carries (the last one recorded in the log).
 */
final class WorkspaceToolCalls implements ToolCalls {
    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceToolCalls.class);

    private final ToolExecutor executor;
    private final Workspaces workspaces;

    WorkspaceToolCalls(ToolExecutor executor, Workspaces workspaces) {
        this.executor = executor;
        this.workspaces = workspaces;
    }

    @Override
    public ToolOutcome run(TakenCall taken, Consumer<String> liveOutput) {
        ToolCallRequested call = taken.request();
        try {
            Path workspace = workspaces.forSession(taken.userId(), taken.sessionId());
            JsonNode args = Json.mapper().readTree(call.arguments());
            var spec = new SandboxSpec(taken.userId(), taken.sessionId(), workspace, call.shell());
            return executor.execute(call.name(), args, spec, call.byUser(), liveOutput);
        } catch (IOException e) {
            return new ToolOutcome(false, "", "cannot prepare the workspace: " + e.getMessage(), null, false);
        } catch (RuntimeException e) {
            LOG.error("tool {} failed unexpectedly", call.name(), e);
            return new ToolOutcome(false, "", "the tool failed unexpectedly: " + e, null, false);
        }
    }
}
