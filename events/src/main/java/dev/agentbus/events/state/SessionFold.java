package dev.agentbus.events.state;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallRefused;
import dev.agentbus.events.session.SessionEvent.ModelWarned;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.McpToolsListed;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.planning.PlanningFold;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UnknownEvent;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.tools.ToolArguments;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pure fold: {@code state' = evolve(state, event)}. It only assigns; it never validates, calls anything or
 * reads the clock (deciding is the orchestrator's job). The switch is exhaustive over the sealed interface with no
 * default branch, so adding an event type without saying how it folds does not compile.
 */
public final class SessionFold {
    private SessionFold() {
    }

    public static SessionState fold(String sessionId, Iterable<EventEnvelope> events) {
        SessionState state = SessionState.initial(sessionId);
        for (EventEnvelope e : events) {
            state = evolve(state, e);
        }
        return state;
    }

    public static SessionState evolve(SessionState s, EventEnvelope e) {
        Builder b = new Builder(s);
        b.lastSeq = e.seq();
        b.updatedAt = e.time();
        switch (e.event()) {
            case SessionCreated c -> {
                b.status = SessionStatus.IDLE;
                b.title = c.title();
                b.userId = e.userId();
                b.createdAt = e.time();
                b.permissionMode = c.mode() == null ? PermissionMode.AUTO : c.mode();
                b.subAgents = SubAgentsFold.created(b.subAgents, c);
                b.context = b.context.withIncognito(c.incognito());
            }
            case PermissionModeChanged m -> {
                if (m.mode() != null) {
                    b.permissionMode = m.mode();
                }
            }
            case ApprovalRequested a -> {
                List<PendingApproval> pending = new ArrayList<>(b.pendingApprovals);
                pending.add(new PendingApproval(a.callId(), a.tool(), a.arguments(), a.risk(), a.reason(),
                        a.expiresAt()));
                b.pendingApprovals = pending;
                if (b.turn != null) {
                    b.status = SessionStatus.AWAITING_APPROVAL;
                }
            }
            case ApprovalDecided d -> {
                List<PendingApproval> pending = new ArrayList<>(b.pendingApprovals);
                PendingApproval decided = s.pendingApproval(d.callId()).orElse(null);
                pending.remove(decided);
                b.pendingApprovals = pending;
                if (d.decision() == ApprovalDecision.ALWAYS && decided != null
                        && !b.alwaysAllowed.contains(decided.tool())) {
                    List<String> allowed = new ArrayList<>(b.alwaysAllowed);
                    allowed.add(decided.tool());
                    b.alwaysAllowed = allowed;
                }
                // A decision on a proposed plan's call approves or rejects the plan (plan-first mode).
                b.planning = PlanningFold.approvalDecided(b.planning, d.callId(), d.decision().allows(), d.note());
                if (b.turn != null) {
                    b.status = !pending.isEmpty() ? SessionStatus.AWAITING_APPROVAL
                            : b.pendingWait != null ? SessionStatus.WAITING : SessionStatus.RUNNING;
                }
            }
            case UserMessagePosted m -> {
                b.messages = b.messages.plus(new Message.User(e.seq(), m.text(), m.images()));
                b.status = SessionStatus.RUNNING;
                // A message to a waiting turn joins it (the decider ended its wait or approvals first); otherwise
                // it starts one. Logs written before messages could wake a turn only ever have the second case.
                if (b.turn == null) {
                    b.turns = s.turns() + 1;
                    b.turn = new Turn(b.turns, 0, null, List.of());
                }
                b.lastError = null;
            }
            case SessionRenamed r -> {
                if (r.title() != null && !r.title().isBlank()) {
                    b.title = r.title();
                }
            }
            case SessionDeleted d -> {
                // The decider ended any turn before this; nothing of the session is in flight any more.
                b.status = SessionStatus.DELETED;
                b.turn = null;
                b.pendingApprovals = List.of();
                b.pendingWait = null;
            }
            case WhisperQueued w -> {
                List<QueuedWhisper> queued = new ArrayList<>(b.queuedWhispers);
                queued.add(new QueuedWhisper(w.whisperId(), w.text(), w.sentBy()));
                b.queuedWhispers = queued;
            }
            case WhisperDelivered d -> {
                QueuedWhisper w = s.queuedWhispers().stream().filter(q -> q.whisperId().equals(d.whisperId()))
                        .findFirst().orElse(null);
                if (w != null) {
                    List<QueuedWhisper> queued = new ArrayList<>(b.queuedWhispers);
                    queued.remove(w);
                    b.queuedWhispers = queued;
                    b.messages = b.messages.plus(new Message.Notice(e.seq(),
                            "The user sent this note while you were working: " + w.text()));
                }
            }
            case LoopWarned w -> {
                b.messages = b.messages.plus(new Message.Notice(e.seq(), w.reason()));
                if (b.turn != null && w.guard() != null) {
                    b.turn = b.turn.warned(w.guard());
                }
            }
            case MemoryAttached m -> {
                b.memory = m.content();
                b.memoryVersion = m.version();
            }
            case SessionEvent.InsightsInjected i -> b.context = ContextFold.insightsInjected(b.context, i);
            // A vote changes the user's insights (the memory-service's), not the session.
            case SessionEvent.FeedbackGiven f -> {
            }
            // So does the agent's change to them; the call's result (tool_call.completed.v1) is what the model sees.
            case SessionEvent.MemoryManaged m -> {
            }
            case ModelCallStarted m -> {
                b.models = ModelFold.asked(b.models, m);
                if (b.turn != null) {
                    b.turn = b.turn.with(m.iteration(), m.requestId(), b.turn.openToolCalls());
                }
            }
            case ModelCallCompleted m -> {
                b.messages = b.messages.plus(
                        new Message.Assistant(e.seq(), m.content(), m.reasoning(), m.toolCalls()));
                b.usage = s.usage().plus(m.usage());
                b.modelCalls = s.modelCalls() + 1;
                b.lastModel = m.model();
                b.context = ContextFold.measured(b.context, m.measure(), m.usage(), b.messages.size());
                List<String> open = new ArrayList<>(b.turn == null ? List.of() : b.turn.openToolCalls());
                for (ToolCallSpec call : m.toolCalls()) {
                    if (call.id() == null || b.toolCalls.containsKey(call.id())) {
                        continue; // the decider gives every call a unique id; a log from elsewhere may not
                    }
                    b.toolCalls = b.toolCalls.plus(call.id(),
                            ToolCallView.proposed(call.id(), call.name(), call.arguments()));
                    open.add(call.id());
                }
                if (b.turn != null) {
                    b.turn = b.turn.with(b.turn.iterations(), null, open);
                }
            }
            case ModelCallRefused f -> {
                b.lastError = f.reason();
                if (b.turn != null) {
                    b.turn = b.turn.with(b.turn.iterations(), null, b.turn.openToolCalls());
                }
            }
            case ModelWarned w -> b.models = ModelFold.warned(b.models, w);
            case ModelCallFailed f -> {
                b.lastError = f.message();
                if (b.turn != null) {
                    b.turn = b.turn.with(b.turn.iterations(), null, b.turn.openToolCalls());
                }
            }
            case ToolCallRequested r -> {
                ToolCallView view = b.toolCalls.get(r.callId());
                if (r.byUser() && view == null) {
                    b.toolCalls = b.toolCalls.plus(r.callId(),
                            ToolCallView.requestedByUser(r.callId(), r.name(), ToolArguments.abbreviated(r.arguments())));
                } else if (!r.byUser() && view != null) {
                    b.toolCalls = b.toolCalls.plus(r.callId(), view.withStatus(ToolCallView.Status.REQUESTED));
                }
            }
            case ToolCallStarted t -> {
                ToolCallView view = b.toolCalls.get(t.callId());
                if (view != null) {
                    b.toolCalls = b.toolCalls.plus(t.callId(), view.started(t.worker()));
                }
            }
            case ToolCallCompleted c -> {
                ToolCallView view = b.toolCalls.get(c.callId());
                if (view != null) {
                    // A person's upload or download carries a whole file; the log keeps it, the state (which forks
                    // and snapshots copy) keeps only a note of it, like the arguments.
                    String output = view.byUser() ? abbreviatedOutput(c.output()) : c.output();
                    ToolCallView done = view.completed(c.ok(), output, c.error(), c.diff(), c.truncated(),
                            c.durationMs(), c.interrupted(), c.checkpoint(), c.refusal());
                    b.toolCalls = b.toolCalls.plus(c.callId(), done);
                    if (view.byUser()) {
                        // No assistant message asked for it, so it cannot be a tool message; the model is told in
                        // a notice without the output (a download's output is the whole file).
                        b.messages = b.messages.plus(new Message.Notice(e.seq(), "The user ran the tool " + done.name()
                                + " directly with " + done.arguments() + (c.ok() ? "; it succeeded."
                                : "; it failed: " + c.error())));
                    } else {
                        b.messages = b.messages.plus(
                                new Message.Tool(e.seq(), c.callId(), done.name(), done.resultForModel()));
                    }
                }
                if (c.shell() != null) {
                    b.shell = c.shell();
                }
                if (c.checkpoint() != null) {
                    b.checkpoint = c.checkpoint();
                }
                if (b.turn != null) {
                    List<String> open = new ArrayList<>(b.turn.openToolCalls());
                    open.remove(c.callId());
                    b.turn = b.turn.with(b.turn.iterations(), b.turn.pendingRequestId(), open);
                }
            }
            case WaitScheduled w -> {
                // A person's decision is the more urgent thing to show while both are pending.
                b.status = b.pendingApprovals.isEmpty() ? SessionStatus.WAITING : SessionStatus.AWAITING_APPROVAL;
                b.pendingWait = new PendingWait(w.waitId(), w.until(), w.reason(), w.callId());
            }
            case WaitEnded w -> {
                // An interrupted wait is followed by the message that interrupted it: that says enough.
                if (s.pendingWait() != null && s.pendingWait().callId() == null && !w.interrupted()) {
                    b.messages = b.messages.plus(new Message.Notice(e.seq(), "The time you waited for has come ("
                            + s.pendingWait().until() + (s.pendingWait().reason() == null ? "" : ": " + s.pendingWait().reason())
                            + "). Continue the task."));
                }
                b.pendingWait = null;
                b.status = b.turn == null ? SessionStatus.IDLE
                        : b.pendingApprovals.isEmpty() ? SessionStatus.RUNNING : SessionStatus.AWAITING_APPROVAL;
            }
            case TurnEnded t -> {
                b.status = SessionStatus.IDLE;
                b.turn = null;
                b.pendingWait = null;
                // Approvals belong to their turn: once it ended (a cancel, say) there is nothing left to decide.
                b.pendingApprovals = List.of();
                // So do whispers: one that no model call took is dropped with its turn.
                b.queuedWhispers = List.of();
                b.planning = PlanningFold.turnEnded(b.planning);
                b.lastOutcome = t.outcome();
                b.lastAnswer = t.answer();
                // A cancel or a normal end is not an error; its message is in the event, not in lastError.
                if (t.message() != null && (t.outcome() == dev.agentbus.events.session.TurnOutcome.ERROR
                        || t.outcome() == dev.agentbus.events.session.TurnOutcome.ITERATION_CAP
                        || t.outcome() == dev.agentbus.events.session.TurnOutcome.LOOP_DETECTED)) {
                    b.lastError = t.message();
                }
            }
            case SessionForked f -> forkFrom(b, f, e);
            case InputRejected r -> {
                // A rejection changes nothing; it is in the log so clients can see why their input had no effect.
            }
            case PlanningEvent p -> b.planning = PlanningFold.evolve(b.planning, p, e.time());
            case NotificationPosted n -> {
                // For the people following the session, not for the model: no state of its own.
            }
            case ModelSettingsChanged m -> b.models = ModelFold.chosen(b.models, m);
            case SubAgentStarted a -> b.subAgents = SubAgentsFold.started(b.subAgents, a);
            case SubAgentFinished f -> b.subAgents = SubAgentsFold.finished(b.subAgents, f);
            case McpToolsListed l -> b.mcp = new dev.agentbus.events.mcp.McpState(l.servers());
            case SystemPromptChanged p -> b.context = ContextFold.systemPromptSet(b.context, p);
            case ContextFilesLoaded f -> b.context = ContextFold.filesLoaded(b.context, f);
            case ContextCompactionRequested r ->
                    b.context = ContextFold.compactionRequested(b.context, r, b.messages.size());
            case ContextCompacted c -> b.context = ContextFold.compacted(b.context, c);
            case ContextCompactionFailed f -> b.context = ContextFold.compactionFailed(b.context, f);
            case UnknownEvent u -> {
                // Written by a newer version; kept in the log, folded as nothing (invariant 6).
            }
        }
        return b.build();
    }

    /** The most of a person-run tool's output the state keeps; the event keeps it all. */
    static final int USER_TOOL_OUTPUT_KEPT = 1024;

    private static String abbreviatedOutput(String output) {
        if (output == null || output.length() <= USER_TOOL_OUTPUT_KEPT) {
            return output;
        }
        return output.substring(0, USER_TOOL_OUTPUT_KEPT) + "… <" + output.length() + " characters>";
    }

    /**
     * The fork starts from the source's state at atSeq, made its own: its id, owner and times, idle, and with every
     * call that was still unanswered there answered as "not run", so the conversation the model sees is complete.
     */
    private static void forkFrom(Builder b, SessionForked f, EventEnvelope e) {
        SessionState from = f.state() == null ? SessionState.initial(b.sessionId) : f.state();
        Builder src = new Builder(from);
        b.userId = e.userId();
        b.title = f.title() != null ? f.title() : from.title();
        b.status = SessionStatus.IDLE;
        b.createdAt = e.time();
        b.messages = src.messages;
        b.toolCalls = src.toolCalls;
        b.usage = from.usage();
        b.modelCalls = from.modelCalls();
        b.turns = from.turns();
        b.turn = null;
        b.pendingWait = null;
        b.memory = from.memory();
        b.memoryVersion = from.memoryVersion();
        b.lastModel = from.lastModel();
        b.lastOutcome = from.lastOutcome();
        b.lastAnswer = from.lastAnswer();
        b.lastError = from.lastError();
        b.shell = from.shell();
        b.checkpoint = f.checkpoint() != null ? f.checkpoint() : from.checkpoint();
        b.forkedFrom = f.fromSessionId();
        b.forkedAtSeq = f.atSeq();
        // The fork keeps how the source was run; a call still waiting for approval there is answered "not run" below
        // like any other unanswered call, since the fork starts idle, with no turn to hold it.
        b.permissionMode = from.permissionMode();
        b.alwaysAllowed = from.alwaysAllowed();
        b.pendingApprovals = List.of();
        b.queuedWhispers = List.of();
        b.context = ContextFold.forked(from.context());
        b.planning = PlanningFold.turnEnded(from.planning());
        b.models = ModelFold.forked(from.models());
        b.subAgents = SubAgentsFold.forked(from.subAgents());
        // The fork's worker lists the servers again when it sees the fork; until then the source's tools stand.
        b.mcp = from.mcp();
        for (ToolCallView view : List.copyOf(b.toolCalls.values())) {
            if (view.status() != ToolCallView.Status.COMPLETED) {
                String why = "not run: the session was forked before this call was answered";
                ToolCallView done = view.completed(false, null, why, null, false, 0, false, null, null);
                b.toolCalls = b.toolCalls.plus(view.callId(), done);
                if (!view.byUser()) {
                    b.messages = b.messages.plus(
                            new Message.Tool(e.seq(), view.callId(), view.name(), done.resultForModel()));
                }
            }
        }
    }

    /**
     * The fields of one state while one evolve call works out the next. The two collections are persistent: each
     * change makes a new one that shares everything else with the old, so a builder costs O(1), not O(history).
     */
    private static final class Builder {
        final String sessionId;
        String userId;
        String title;
        SessionStatus status;
        long lastSeq;
        Instant createdAt;
        Instant updatedAt;
        AppendOnlyList<Message> messages;
        InsertionOrderedMap<String, ToolCallView> toolCalls;
        dev.agentbus.events.session.TokenUsage usage;
        int modelCalls;
        int turns;
        Turn turn;
        PendingWait pendingWait;
        String memory;
        long memoryVersion;
        String lastModel;
        dev.agentbus.events.session.TurnOutcome lastOutcome;
        String lastAnswer;
        String lastError;
        dev.agentbus.events.session.ShellState shell;
        String checkpoint;
        String forkedFrom;
        long forkedAtSeq;
        PermissionMode permissionMode;
        List<PendingApproval> pendingApprovals;
        List<String> alwaysAllowed;
        List<QueuedWhisper> queuedWhispers;
        ContextState context;
        Planning planning;
        ModelState models;
        SubAgents subAgents;
        dev.agentbus.events.mcp.McpState mcp;

        Builder(SessionState s) {
            sessionId = s.sessionId();
            userId = s.userId();
            title = s.title();
            status = s.status();
            lastSeq = s.lastSeq();
            createdAt = s.createdAt();
            updatedAt = s.updatedAt();
            // O(1): a state's collections are always the persistent kinds (its constructor makes sure).
            messages = AppendOnlyList.copyOf(s.messages());
            toolCalls = InsertionOrderedMap.copyOf(s.toolCalls());
            usage = s.usage();
            modelCalls = s.modelCalls();
            turns = s.turns();
            turn = s.turn();
            pendingWait = s.pendingWait();
            memory = s.memory();
            memoryVersion = s.memoryVersion();
            lastModel = s.lastModel();
            lastOutcome = s.lastOutcome();
            lastAnswer = s.lastAnswer();
            lastError = s.lastError();
            shell = s.shell();
            checkpoint = s.checkpoint();
            forkedFrom = s.forkedFrom();
            forkedAtSeq = s.forkedAtSeq();
            permissionMode = s.permissionMode();
            pendingApprovals = s.pendingApprovals();
            alwaysAllowed = s.alwaysAllowed();
            queuedWhispers = s.queuedWhispers();
            context = s.context();
            planning = s.planning();
            models = s.models();
            subAgents = s.subAgents();
            mcp = s.mcp();
        }

        SessionState build() {
            return new SessionState(sessionId, userId, title, status, lastSeq, createdAt, updatedAt, messages,
                    toolCalls, usage, modelCalls, turns, turn, pendingWait, memory, memoryVersion, lastModel, lastOutcome,
                    lastAnswer, lastError, shell, checkpoint, forkedFrom, forkedAtSeq, permissionMode, pendingApprovals,
                    alwaysAllowed, queuedWhispers, context, planning, models, subAgents, mcp);
        }
    }
}
