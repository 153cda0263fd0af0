package dev.agentbus.gateway.readmodels.auditing;

import dev.agentbus.eventbus.redacting.SecretRedactor;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UnknownEvent;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.gateway.readmodels.Sql;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The pure fold of the audit log: which audit records an event creates or changes.
 *
 * <p>A call enters the log when it is asked for: the model's calls with its answer ({@code model_call.completed.v1},
 * so calls the orchestrator answers itself, such as an unknown tool or the wait tool, are audited too), a person's
 * with {@code tool_call.requested.v1} ({@code byUser}). Arguments are masked with {@link SecretRedactor} before they
 * are kept: the sandbox-worker needs them as written, so the log has them unmasked, but the audit log is for
 * reading and exporting. A call's result is applied once; a second one changes nothing (as in the fold).
 */
final class AuditTrail {
    static final int MAX_ERROR_CHARS = 2000;

    private AuditTrail() {
    }

    /**
     * The records the event creates or changes, given the records known so far of its session by call id (null when
     * unknown). Empty for events that are not about tool calls.
     */
    public static List<AuditRecord> evolve(Function<String, AuditRecord> known, EventEnvelope e) {
        List<AuditRecord> out = new ArrayList<>();
        switch (e.event()) {
            case ModelCallCompleted m -> {
                for (ToolCallSpec call : m.toolCalls()) {
                    if (call.id() != null && known.apply(call.id()) == null
                            && out.stream().noneMatch(r -> r.callId().equals(call.id()))) {
                        out.add(requested(e, call.id(), call.name(), call.arguments(), false));
                    }
                }
            }
            case ToolCallRequested r -> {
                if (r.callId() != null && known.apply(r.callId()) == null) {
                    out.add(requested(e, r.callId(), r.name(), r.arguments(), r.byUser()));
                }
            }
            case ToolCallStarted s -> {
                AuditRecord record = known.apply(s.callId());
                if (record != null && record.completedSeq() == null) {
                    out.add(record.started(s.worker(), e.time()));
                }
            }
            case ToolCallCompleted c -> {
                AuditRecord record = known.apply(c.callId());
                if (record != null && record.completedSeq() == null) {
                    out.add(record.completed(statusOf(c), c.durationMs(), reasonOf(c), e.time(), e.seq()));
                }
            }
            case SessionCreated c -> {
            }
            case SessionForked f -> {
                // The source's calls are audited in the source session.
            }
            case UserMessagePosted m -> {
            }
            case MemoryAttached m -> {
            }
            case SessionEvent.InsightsInjected i -> {
            }
            case SessionEvent.FeedbackGiven f -> {
            }
            case SessionEvent.MemoryManaged m -> {
                // The manage_memory call was audited as requested with the model's answer, and its result.
            }
            case ModelCallStarted m -> {
            }
            case ModelCallFailed m -> {
            }
            case SessionEvent.ModelCallRefused m -> {
            }
            case SessionEvent.ModelWarned m -> {
            }
            case WaitScheduled w -> {
            }
            case WaitEnded w -> {
            }
            case TurnEnded t -> {
            }
            case InputRejected r -> {
            }
            case NotificationPosted n -> {
            }
            case PlanningEvent p -> {
                // The agent's own bookkeeping; the plan_create call and its approval are audited like any call.
            }
            case PermissionModeChanged m -> {
            }
            case ApprovalRequested a -> {
                // The call was audited as requested with the model's answer; its result says if it was denied.
            }
            case ApprovalDecided d -> {
            }
            case SessionRenamed r -> {
            }
            case SessionDeleted d -> {
                // Kept: an audit trail that its subject could erase would not be one.
            }
            case WhisperQueued w -> {
            }
            case WhisperDelivered w -> {
            }
            case LoopWarned w -> {
                // A loop-detected turn leaves its calls answered "not run" in their results.
            }
            case SessionEvent.SystemPromptChanged p -> {
            }
            case SessionEvent.ModelSettingsChanged m -> {
            }
            case SessionEvent.SubAgentStarted a -> {
                // The task call was audited with the model's answer; the child's own calls in the child session.
            }
            case SessionEvent.SubAgentFinished f -> {
            }
            case SessionEvent.ContextFilesLoaded f -> {
            }
            case SessionEvent.ContextCompactionRequested r -> {
            }
            case SessionEvent.ContextCompacted c -> {
            }
            case SessionEvent.ContextCompactionFailed f -> {
            }
            case SessionEvent.McpToolsListed l -> {
                // The calls of MCP tools are audited like any call; the listing itself is no call.
            }
            case UnknownEvent u -> {
            }
        }
        return out;
    }

    private static AuditRecord requested(EventEnvelope e, String callId, String tool, String arguments,
                                         boolean byUser) {
        return new AuditRecord(e.sessionId(), callId, e.userId(), tool == null ? "" : tool,
                SecretRedactor.redact(arguments), AuditStatus.REQUESTED, byUser, null, e.time(), null, null, null,
                null, e.seq(), null);
    }

    static AuditStatus statusOf(ToolCallCompleted c) {
        if (c.refusal() != null) {
            return AuditStatus.REFUSED;
        }
        if (c.interrupted()) {
            return AuditStatus.INTERRUPTED;
        }
        return c.ok() ? AuditStatus.OK : AuditStatus.FAILED;
    }

    private static String reasonOf(ToolCallCompleted c) {
        String reason = c.refusal() != null ? c.refusal() : c.ok() ? null : c.error();
        return Sql.cut(SecretRedactor.redact(reason), MAX_ERROR_CHARS);
    }
}
