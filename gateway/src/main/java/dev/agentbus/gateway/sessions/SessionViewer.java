package dev.agentbus.gateway.sessions;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.MemoryManaged;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.ToolCatalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a session shows to the one looking at it: the one rule for every route that serves a session (its state, its
 * log over HTTP and SSE, the JSON Lines and Markdown exports, forks, share links, the MCP server's task reports).
 *
 * <p>The owner sees everything. Anyone else (a member of a group it is shared with, the holder of a share link) sees
 * the same session without its owner's private memory: the memory document ({@code memory.attached.v1}, the state's
 * {@code memory}), the insights injected into its prompts ({@code insights.injected.v1}), the agent's changes to them
 * ({@code memory.managed.v1}), and the arguments and results of the agent's {@code manage_memory} calls, which list
 * and quote the insights. The events keep their seq and type (a log with gaps would look damaged to every client);
 * only those contents are blanked, so the viewer's log folds into the viewer's state.
 *
 * <p>Not covered: what the model itself says. Its answers were written with the owner's memory in the prompt and may
 * repeat it; that is the conversation the owner chose to share.
 *
 * <p>One viewer follows one stream: it learns the ids of {@code manage_memory} calls as they pass (their results name
 * only the call), so make a new one per request or subscription.
 */
public final class SessionViewer {
    /** What stands where the owner's memory was. */
    public static final String HIDDEN = "(the session owner's memory: shown to the owner only)";
    private static final String NO_ARGUMENTS = "{}";

    private final boolean owner;
    private final Set<String> memoryCalls = ConcurrentHashMap.newKeySet();

    private SessionViewer(boolean owner, SessionState session) {
        this.owner = owner;
        learn(session);
    }

    /** The viewer {@code userId} of {@code session}: its owner, or anyone else. */
    public static SessionViewer of(SessionState session, String userId) {
        return new SessionViewer(userId != null && session.isOwnedBy(userId), session);
    }

    /** Someone without an account (a share link): never the owner. */
    public static SessionViewer anonymous(SessionState session) {
        return new SessionViewer(false, session);
    }

    /** The state as this viewer may see it. */
    public SessionState state(SessionState s) {
        return owner ? s : hidden(s);
    }

    /** The log as this viewer may see it, seq for seq. */
    public List<EventEnvelope> events(List<EventEnvelope> log) {
        return owner ? log : log.stream().map(this::event).toList();
    }

    /** One event as this viewer may see it (the same seq and type, the owner's memory blanked). */
    public EventEnvelope event(EventEnvelope e) {
        if (owner) {
            return e;
        }
        SessionEvent shown = switch (e.event()) {
            case MemoryAttached m -> new MemoryAttached("", 0);
            case InsightsInjected i -> new InsightsInjected(List.of());
            case MemoryManaged m -> new MemoryManaged(m.callId(), m.action(), m.insightId(), null, null);
            case ModelCallCompleted m -> new ModelCallCompleted(m.requestId(), m.model(), m.content(), m.reasoning(),
                    specs(m.toolCalls()), m.usage(), m.finishReason(), m.measure());
            case ToolCallRequested r when isMemoryTool(r.name()) -> {
                memoryCalls.add(r.callId());
                yield new ToolCallRequested(r.callId(), r.name(), NO_ARGUMENTS, r.shell(), r.byUser());
            }
            case ApprovalRequested a when isMemoryTool(a.tool()) -> {
                memoryCalls.add(a.callId());
                yield new ApprovalRequested(a.callId(), a.tool(), NO_ARGUMENTS, a.risk(), a.reason(), a.expiresAt());
            }
            case ToolCallCompleted c when memoryCalls.contains(c.callId()) -> new ToolCallCompleted(c.callId(), c.ok(),
                    c.output() == null ? null : HIDDEN, c.error() == null ? null : HIDDEN, c.diff(), c.truncated(),
                    c.durationMs(), c.interrupted(), c.shell(), c.checkpoint(), c.refusal());
            case SessionForked f -> {
                learn(f.state());
                yield new SessionForked(f.fromSessionId(), f.atSeq(), f.checkpoint(), f.title(),
                        f.state() == null ? null : hidden(f.state()));
            }
            default -> e.event();
        };
        return shown == e.event() ? e : new EventEnvelope(e.id(), e.sessionId(), e.seq(), e.time(), e.causationId(),
                e.userId(), shown);
    }

    private SessionState hidden(SessionState s) {
        Map<String, ToolCallView> calls = new LinkedHashMap<>();
        s.toolCalls().forEach((id, c) -> calls.put(id, isMemoryTool(c.name()) ? new ToolCallView(c.callId(), c.name(),
                NO_ARGUMENTS, c.status(), c.ok(), c.output() == null ? null : HIDDEN,
                c.error() == null ? null : HIDDEN, c.diff(), c.truncated(), c.durationMs(), c.interrupted(),
                c.worker(), c.byUser(), c.checkpoint(), c.refusal()) : c));
        List<Message> messages = s.messages().stream().map(m -> switch (m) {
            case Message.Assistant a -> new Message.Assistant(a.seq(), a.content(), a.reasoning(),
                    specs(a.toolCalls()));
            case Message.Tool t when isMemoryTool(t.name()) -> new Message.Tool(t.seq(), t.callId(), t.name(),
                    HIDDEN);
            default -> m;
        }).toList();
        List<PendingApproval> approvals = s.pendingApprovals().stream().map(this::approval).toList();
        return new SessionState(s.sessionId(), s.userId(), s.title(), s.status(), s.lastSeq(), s.createdAt(),
                s.updatedAt(), messages, calls, s.usage(), s.modelCalls(), s.turns(), s.turn(), s.pendingWait(), "",
                0, s.lastModel(), s.lastOutcome(), s.lastAnswer(), s.lastError(), s.shell(), s.checkpoint(),
                s.forkedFrom(), s.forkedAtSeq(), s.permissionMode(), approvals, s.alwaysAllowed(),
                s.queuedWhispers(), s.context().withInsights(List.of()), s.planning(), s.models(), s.subAgents(),
                s.mcp());
    }

    /** A call waiting for a person's decision, as this viewer may see it. */
    public PendingApproval approval(PendingApproval a) {
        return owner || !isMemoryTool(a.tool()) ? a
                : new PendingApproval(a.callId(), a.tool(), NO_ARGUMENTS, a.risk(), a.reason(), a.expiresAt());
    }

    private List<ToolCallSpec> specs(List<ToolCallSpec> specs) {
        return specs.stream().map(c -> {
            if (!isMemoryTool(c.name())) {
                return c;
            }
            memoryCalls.add(c.id());
            return new ToolCallSpec(c.id(), c.name(), NO_ARGUMENTS);
        }).toList();
    }

    /** The manage_memory calls a session already has, whose results may come after the point a stream starts at. */
    private void learn(SessionState s) {
        if (s != null) {
            s.toolCalls().values().stream().filter(c -> isMemoryTool(c.name()))
                    .forEach(c -> memoryCalls.add(c.callId()));
        }
    }

    private static boolean isMemoryTool(String name) {
        return ToolCatalog.MANAGE_MEMORY.equals(name);
    }
}
