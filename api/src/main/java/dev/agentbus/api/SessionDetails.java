package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/sessions/{id}}: everything the session's log says about it, as docs/api.md#session-state
 * describes it. Fields without a value are left out (for example {@code turn} while no turn runs).
 *
 * @param status      {@code IDLE}, {@code RUNNING}, {@code WAITING} or {@code AWAITING_APPROVAL}
 * @param messages    the conversation as the model sees it, oldest first
 * @param toolCalls   every tool call of the session by id, in the order they were proposed
 * @param turn        the running turn, absent when idle
 * @param pendingWait the wait the session is suspended on, absent when none
 * @param lastOutcome how the last turn ended: {@code COMPLETED}, {@code CANCELLED}, {@code ITERATION_CAP},
 *                    {@code ERROR} or {@code LOOP_DETECTED}
 * @param shell       the persistent shell's state after the last command
 * @param checkpoint  the latest workspace checkpoint
 * @param forkedFrom  the session this one was forked (or imported) from
 * @param forkedAtSeq the seq of {@code forkedFrom} it was forked at; 0 when not a fork
 * @param permissionMode {@code auto}, {@code normal} or {@code manual}: which of the model's calls wait for a person
 * @param pendingApprovals the calls waiting for a person's decision, in the order the model asked; empty when none
 * @param alwaysAllowed tools a person allowed for the rest of the session; empty when none
 * @param queuedWhispers people's notes to the running turn waiting for its next model call; empty when none
 * @param context     the context gauge, the session's own system prompt, its context files and the summary of the
 *                    compacted conversation ({@link Context})
 * @param planFirst  whether tools wait for a plan the user approved (plan-first mode)
 * @param todos      the agent's todos, in the order added; empty when none
 * @param plan       the latest plan with its steps, their status and evidence; absent before the first
 * @param taskState  the batch job's checkpoint; absent before the first
 * @param model      the session's own model and sampling, and what its latest model call asked for
 *                   ({@link SessionModel}); absent when the session never chose one nor made a call that asked
 * @param parent     for a sub-agent: the session whose {@code task} call started it, and that call; absent otherwise
 * @param children   the sub-agents this session's {@code task} calls started, in order; absent when none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionDetails(String sessionId, String userId, String title, String status, long lastSeq,
                             Instant createdAt, Instant updatedAt, List<Message> messages,
                             Map<String, ToolCall> toolCalls, Usage usage, int modelCalls, int turns, Turn turn,
                             PendingWait pendingWait, String memory, long memoryVersion, String lastModel,
                             String lastOutcome, String lastAnswer, String lastError, Shell shell, String checkpoint,
                             String forkedFrom, long forkedAtSeq, String permissionMode,
                             List<PendingApproval> pendingApprovals, List<String> alwaysAllowed,
                             List<QueuedWhisper> queuedWhispers, Context context, boolean planFirst,
                             List<PlanningView.Todo> todos, PlanningView.Plan plan, PlanningView.TaskState taskState,
                             SessionModel model, Parent parent, List<Child> children) {

    public static SessionDetails of(SessionState s) {
        PlanningView planning = PlanningView.of(s.planning());
        Map<String, ToolCall> calls = new LinkedHashMap<>();
        s.toolCalls().forEach((id, view) -> calls.put(id, ToolCall.of(view)));
        return new SessionDetails(s.sessionId(), s.userId(), s.title(), s.status().name(), s.lastSeq(), s.createdAt(),
                s.updatedAt(), s.messages().stream().map(Message::of).toList(), calls, Usage.of(s.usage()),
                s.modelCalls(), s.turns(), Turn.of(s.turn()), PendingWait.of(s.pendingWait()), s.memory(),
                s.memoryVersion(), s.lastModel(), s.lastOutcome() == null ? null : s.lastOutcome().name(),
                s.lastAnswer(), s.lastError(), Shell.of(s.shell()), s.checkpoint(), s.forkedFrom(), s.forkedAtSeq(),
                s.permissionMode().wireName(), s.pendingApprovals().stream().map(PendingApproval::of).toList(),
                s.alwaysAllowed(), s.queuedWhispers().stream().map(QueuedWhisper::of).toList(),
                Context.of(s.context()), planning.planFirst(), planning.todos(), planning.plan(), planning.taskState(),
                SessionModel.of(s.models()), Parent.of(s.subAgents().parent()),
                s.subAgents().children().isEmpty() ? null
                        : s.subAgents().children().stream().map(Child::of).toList());
    }

    /**
     * The session that started this one (a sub-agent) with its {@code task} call, and what it may do.
     *
     * @param tools         the only tools the sub-agent is offered
     * @param maxIterations its own cap on model calls
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Parent(String sessionId, String callId, List<String> tools, int maxIterations) {
        static Parent of(dev.agentbus.events.session.SubAgentOf p) {
            return p == null ? null : new Parent(p.parentSessionId(), p.callId(), p.tools(), p.maxIterations());
        }
    }

    /**
     * A sub-agent this session started.
     *
     * @param status {@code RUNNING} until its result came back, then how its turn ended ({@code COMPLETED},
     *               {@code CANCELLED}, {@code ITERATION_CAP}, {@code ERROR} or {@code LOOP_DETECTED})
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Child(String sessionId, String callId, String description, String status) {
        static Child of(dev.agentbus.events.state.SubAgents.Child c) {
            return new Child(c.sessionId(), c.callId(), c.description(),
                    c.outcome() == null ? "RUNNING" : c.outcome().name());
        }
    }

    /** A person's note to the running turn ({@code POST /api/v1/sessions/{id}/whisper}), not yet given to the model. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record QueuedWhisper(String whisperId, String text, String sentBy) {
        static QueuedWhisper of(dev.agentbus.events.state.QueuedWhisper w) {
            return new QueuedWhisper(w.whisperId(), w.text(), w.sentBy());
        }
    }

    /**
     * One message of the conversation. {@code kind} says which it is, and which fields it has:
     * {@code user} and {@code notice}: {@code text}; {@code assistant}: {@code content} (absent when the model only
     * called tools), {@code reasoning} (absent when none), {@code toolCalls}; {@code tool}: {@code callId},
     * {@code name}, {@code content} (the text the model reads as the call's result).
     *
     * <p>One record rather than one per kind, so a client still shows a message whose kind it does not know, or
     * one from a gateway that did not send the kind.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Message(String kind, long seq, String text, String callId, String name, String content,
                          String reasoning, List<AskedCall> toolCalls) {

        static Message of(dev.agentbus.events.state.Message m) {
            return switch (m) {
                case dev.agentbus.events.state.Message.User u ->
                        new Message("user", u.seq(), u.text(), null, null, null, null, null);
                case dev.agentbus.events.state.Message.Assistant a ->
                        new Message("assistant", a.seq(), null, null, null, a.content(), a.reasoning(),
                                a.toolCalls().stream().map(AskedCall::of).toList());
                case dev.agentbus.events.state.Message.Tool t ->
                        new Message("tool", t.seq(), null, t.callId(), t.name(), t.content(), null, null);
                case dev.agentbus.events.state.Message.Notice n ->
                        new Message("notice", n.seq(), n.text(), null, null, null, null, null);
            };
        }
    }

    /** A tool call as the model asked for it; {@code arguments} is a string holding a JSON object. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AskedCall(String id, String name, String arguments) {
        static AskedCall of(ToolCallSpec spec) {
            return new AskedCall(spec.id(), spec.name(), spec.arguments());
        }
    }

    /**
     * One tool call and, once answered, its result.
     *
     * @param status {@code PROPOSED}, {@code REQUESTED}, {@code STARTED} or {@code COMPLETED}
     * @param ok     whether it succeeded; absent until completed
     * @param byUser a person ran it directly (upload, download, rewind), not the model
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolCall(String callId, String name, String arguments, String status, Boolean ok, String output,
                           String error, String diff, boolean truncated, long durationMs, boolean interrupted,
                           String worker, boolean byUser, String checkpoint, String refusal) {
        static ToolCall of(ToolCallView v) {
            return new ToolCall(v.callId(), v.name(), v.arguments(), v.status() == null ? null : v.status().name(),
                    v.ok(), v.output(), v.error(), v.diff(), v.truncated(), v.durationMs(), v.interrupted(),
                    v.worker(), v.byUser(), v.checkpoint(), v.refusal());
        }
    }

    /**
     * The turn in progress.
     *
     * @param iterations       model calls started in this turn
     * @param pendingRequestId the model call awaiting its answer, absent when none
     * @param openToolCalls    ids of this turn's tool calls still without a result, in the order the model asked
     * @param loopWarnings     the loop guards that warned the model in this turn ({@code repeated_call},
     *                         {@code no_progress}, {@code tool_errors}, {@code empty_replies}); empty when none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Turn(int number, int iterations, String pendingRequestId, List<String> openToolCalls,
                       List<String> loopWarnings) {
        static Turn of(dev.agentbus.events.state.Turn t) {
            return t == null ? null : new Turn(t.number(), t.iterations(), t.pendingRequestId(), t.openToolCalls(),
                    t.loopWarnings().stream().map(g -> g.name().toLowerCase(java.util.Locale.ROOT)).toList());
        }
    }

    /** The wait a session is suspended on; {@code callId} is set when the model called the wait tool. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PendingWait(String waitId, Instant until, String reason, String callId) {
        static PendingWait of(dev.agentbus.events.state.PendingWait w) {
            return w == null ? null : new PendingWait(w.waitId(), w.until(), w.reason(), w.callId());
        }
    }

    /**
     * A tool call waiting for a person's decision: {@code POST /api/v1/sessions/{id}/approvals/{callId}}.
     *
     * @param arguments a string holding the call's JSON object
     * @param risk      {@code low}, {@code medium} or {@code high} (docs/tools.md#risk-classes)
     * @param reason    why it needs approval
     * @param expiresAt when it counts as denied if nobody decided
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PendingApproval(String callId, String tool, String arguments, String risk, String reason,
                                  Instant expiresAt) {
        static PendingApproval of(dev.agentbus.events.state.PendingApproval a) {
            return new PendingApproval(a.callId(), a.tool(), a.arguments(),
                    a.risk() == null ? null : a.risk().name().toLowerCase(java.util.Locale.ROOT), a.reason(),
                    a.expiresAt());
        }
    }

    /** The persistent shell: its working directory inside the sandbox and the variables the agent exported. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Shell(String cwd, Map<String, String> env) {
        static Shell of(ShellState shell) {
            return shell == null ? null : new Shell(shell.cwd(), shell.env());
        }
    }
}
