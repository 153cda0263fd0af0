package dev.agentbus.orchestrator.deciding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.tools.PlanningTools;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentTools;
import dev.agentbus.orchestrator.deciding.delegating.TaskCall;
import dev.agentbus.orchestrator.deciding.mcp.McpTools;
import dev.agentbus.orchestrator.deciding.notifying.SendNotificationCall;
import dev.agentbus.orchestrator.deciding.planning.PlanFirst;
import dev.agentbus.orchestrator.deciding.planning.PlanningToolCalls;
import dev.agentbus.orchestrator.deciding.remembering.ManageMemoryCall;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where each tool call of a model's answer goes: refused at once (unknown tool, a person's tool, arguments that are
 * not an object, not allowed for a sub-agent or in plan-first mode), answered by the orchestrator itself (planning,
 * notifications, memory, sub-agents, wait), or sent to the sandbox-worker, after a person's approval when the
 * permission mode asks for one.
 */
final class ToolCallDispatch {
    private ToolCallDispatch() {
    }

    static void dispatch(Step step, List<ToolCallSpec> calls) {
        boolean waitTaken = false;
        for (ToolCallSpec call : calls) {
            Optional<ToolSpec> spec = McpTools.find(step.state, call.name());
            JsonNode args;
            try {
                args = Json.mapper().readTree(call.arguments() == null || call.arguments().isBlank()
                        ? "{}" : call.arguments());
            } catch (IOException e) {
                args = null;
            }
            if (spec.isEmpty()) {
                step.emit(failed(call, "unknown tool '" + call.name() + "'; available tools: "
                        + String.join(", ", McpTools.offered(step.state).stream().map(ToolSpec::name).toList())));
            } else if (spec.get().userOnly()) {
                step.emit(failed(call, "'" + call.name() + "' can only be run by a person, not by the model"));
            } else if (SubAgentTools.refusal(step.state, call.name()).isPresent()) {
                step.emit(failed(call, SubAgentTools.refusal(step.state, call.name()).get()));
            } else if (args == null || !args.isObject()) {
                step.emit(failed(call, "arguments are not a JSON object: " + call.arguments()));
            } else if (PlanFirst.refusal(step.state, spec.get()).isPresent()) {
                step.emit(failed(call, PlanFirst.refusal(step.state, spec.get()).get()));
            } else if (PlanningTools.isPlanningTool(call.name())) {
                PlanningToolCalls.answer(step.state, call.id(), call.name(), args, step.ctx.now(),
                        step.ctx.approvalTimeout()).forEach(step::emit);
            } else if (ToolCatalog.SEND_NOTIFICATION.equals(call.name())) {
                SendNotificationCall.answer(call.id(), args).forEach(step::emit);
            } else if (ToolCatalog.MANAGE_MEMORY.equals(call.name())) {
                ManageMemoryCall.answer(step.state, call.id(), args, step.ctx.insights(), step.ctx.now(),
                        step.ctx.ids()).forEach(step::emit);
            } else if (ToolCatalog.TASK.equals(call.name())) {
                TaskCall.Started task = TaskCall.start(step.state, call.id(), args, step.ctx.subAgents(),
                        step.ctx.maxIterations(), step.ctx.ids());
                task.events().forEach(step::emit);
                step.outgoing.addAll(task.outgoing());
            } else if (spec.get().executor() == ToolSpec.Executor.SANDBOX) {
                ToolSpec tool = spec.get();
                if (step.state.requiresApproval(tool.name(), tool.risk())) {
                    Approvals.request(step, call.id(), tool, args.toString());
                } else if (step.state.pendingApprovals().isEmpty()) {
                    step.emit(new ToolCallRequested(call.id(), call.name(), args.toString(), step.state.shell(), false));
                }
                // else: held until the calls before it are decided (releaseHeldCalls), so calls still run in the
                // order the model asked: a read after a write waiting for approval must not run first.
            } else if (waitTaken) {
                step.emit(failed(call, "only one wait per reply"));
            } else {
                Optional<WaitRequest> wait = WaitRequest.fromArguments(args, step.ctx.now());
                if (wait.isEmpty()) {
                    step.emit(failed(call, "wait needs 'until' (an ISO-8601 time) or 'seconds' (0 or more), at most "
                            + WaitRequest.MAX_WAIT.toDays() + " days ahead"));
                } else {
                    waitTaken = true;
                    step.emit(new WaitScheduled(step.ctx.ids().get(), wait.get().until(), wait.get().reason(),
                            call.id()));
                }
            }
        }
    }

    private static ToolCallCompleted failed(ToolCallSpec call, String error) {
        return new ToolCallCompleted(call.id(), false, null, error, null, false, 0, false);
    }
}
