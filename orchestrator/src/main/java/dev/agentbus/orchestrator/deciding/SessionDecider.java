package dev.agentbus.orchestrator.deciding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.SetSessionModel;
import dev.agentbus.events.input.SessionInput.CompactContext;
import dev.agentbus.events.input.SessionInput.RecordContextFiles;
import dev.agentbus.events.input.SessionInput.RecordMcpTools;
import dev.agentbus.events.input.SessionInput.RecordContextSummary;
import dev.agentbus.events.input.SessionInput.SetSystemPrompt;
import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.DeleteSession;
import dev.agentbus.events.input.SessionInput.DecideApproval;
import dev.agentbus.events.input.SessionInput.ExpireApproval;
import dev.agentbus.events.input.SessionInput.SetPermissionMode;
import dev.agentbus.events.input.SessionInput.ForkSession;
import dev.agentbus.events.input.SessionInput.RunUserTool;
import dev.agentbus.events.input.SessionInput.StartInboxTask;
import dev.agentbus.events.input.SessionInput.StartSubAgent;
import dev.agentbus.events.input.SessionInput.RecordSubAgentResult;
import dev.agentbus.events.input.SessionInput.MarkToolCallStarted;
import dev.agentbus.events.input.SessionInput.PostNotification;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.PostWhisper;
import dev.agentbus.events.input.SessionInput.RenameSession;
import dev.agentbus.events.input.SessionInput.GiveFeedback;
import dev.agentbus.events.insights.AnswerFeedback;
import dev.agentbus.orchestrator.deciding.remembering.ManageMemoryCall;
import dev.agentbus.orchestrator.deciding.remembering.Remembering;
import dev.agentbus.events.input.SessionInput.RecordModelFailure;
import dev.agentbus.events.input.SessionInput.RecordModelRefusal;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.UnknownInput;
import dev.agentbus.events.input.SessionInput.WakeUp;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallRefused;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.PendingApproval;
import dev.agentbus.events.state.QueuedWhisper;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.PlanningTools;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;

import dev.agentbus.orchestrator.deciding.mcp.McpTools;
import dev.agentbus.orchestrator.deciding.notifying.SendNotificationCall;
import dev.agentbus.orchestrator.deciding.delegating.ChildStart;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentMessages;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentResults;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentTools;
import dev.agentbus.orchestrator.deciding.delegating.TaskCall;
import dev.agentbus.orchestrator.deciding.models.ModelChoices;
import dev.agentbus.orchestrator.deciding.models.ThinkingTemperature;
import dev.agentbus.orchestrator.deciding.vision.Attachments;
import dev.agentbus.orchestrator.deciding.planning.PlanFirst;
import dev.agentbus.orchestrator.deciding.planning.PlanningToolCalls;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent loop as a pure function: {@code decide(state, input) -> events + effects}. Every rule of the loop lives
 * here (turns, the iteration cap, cancel, waits, which tool runs where, permission modes and approvals, whispers,
 * messages that wake a waiting turn, the loop guards, the session's system prompt and context files, compaction;
 * todos, plans and plan-first mode in {@code planning}; the agent's notifications in {@code notifying}; sub-agents in
 * {@code delegating}), so each is
 * tested with given events /
 * when input / then events, no Kafka needed. It validates and explains; the fold only assigns.
 *
 * <p>Inputs that arrive late or twice (a model answer for a cancelled turn, a result already recorded, a wake-up
 * for a wait that ended) are ignored with a reason instead of recorded: after a crash some inputs are legitimately
 * delivered again, and results must be recorded exactly once (invariant 4).
 */
public final class SessionDecider {

    public Decision decide(SessionState state, InputEnvelope envelope, DecisionContext ctx) {
        Step step = new Step(state, envelope, ctx);
        SessionInput input = envelope.input();
        if (state.deleted()) {
            // Its id is never used again; late answers of services (a result, a wake-up) are dropped unrecorded.
            return input instanceof CreateSession || input instanceof ForkSession
                    ? step.reject("session " + envelope.sessionId() + " was deleted; its id cannot be used again")
                    : step.ignore("session " + envelope.sessionId() + " was deleted");
        }
        if (!state.exists() && !(input instanceof CreateSession) && !(input instanceof ForkSession)
                && !(input instanceof StartInboxTask) && !(input instanceof StartSubAgent)
                && !(input instanceof UnknownInput)) {
            return step.ignore("session " + envelope.sessionId() + " does not exist");
        }
        switch (input) {
            case CreateSession c -> {
                if (state.exists()) {
                    return step.reject("session already exists");
                }
                // The mode is recorded, not looked up later: a change of the installation default must not change
                // how an existing session's log folds.
                step.emit(new SessionCreated(c.title() == null || c.title().isBlank() ? "New session" : c.title(),
                        c.mode() != null ? c.mode() : ctx.defaultMode(), null, c.incognito()));
                if (c.planFirst()) {
                    step.emit(new PlanFirstChanged(true, envelope.userId()));
                }
                if (!blank(c.preset()) || !blank(c.systemPrompt())) {
                    // The session is created either way; a preset that does not exist is refused on its own.
                    setSystemPrompt(step, c.preset(), c.systemPrompt(), envelope.userId());
                }
                if (ModelChoices.chosen(c.model(), c.sampling())) {
                    // Likewise: a model choice out of bounds is refused on its own, the session stays.
                    chooseModel(step, c.model(), c.sampling(), envelope.userId());
                }
            }
            case SetSessionModel m -> {
                // Taken at any time, also mid-turn: the next model call asks for it (see Step.callModel).
                if (!chooseModel(step, m.model(), m.sampling(), envelope.userId())) {
                    return step.done();
                }
            }
            case SetSystemPrompt p -> {
                if (!setSystemPrompt(step, p.preset(), p.systemPrompt(), envelope.userId())) {
                    return step.done();
                }
            }
            case RecordMcpTools m -> {
                Optional<SessionEvent> listed = McpTools.listed(state, m).map(SessionEvent.class::cast);
                if (listed.isEmpty()) {
                    return step.ignore("the MCP servers and tools are the ones recorded");
                }
                step.emit(listed.get());
            }
            case RecordContextFiles f -> {
                if (f.files().equals(state.context().files())) {
                    return step.ignore("the context files are the ones recorded");
                }
                step.emit(new ContextFilesLoaded(f.files()));
            }
            case CompactContext c -> {
                if (!state.acceptsCompaction()) {
                    return step.reject(state.context().awaitsSummary() ? "a summary is being written already"
                            : "a turn is " + state.status().name().toLowerCase()
                                    + "; during a turn the conversation is compacted when the prompt needs it");
                }
                Optional<Compaction.Cut> cut = Compaction.cut(state, ctx.contextLimits().keepRecentMessages());
                if (cut.isEmpty()) {
                    return step.reject("nothing to compact: the newest " + ctx.contextLimits().keepRecentMessages()
                            + " messages and the first one are always kept, and the rest is summarised already");
                }
                step.compact(cut.get(), "requested by " + envelope.userId(), envelope.userId());
            }
            case RecordContextSummary r -> {
                ContextState.Compacting pending = state.context().compacting();
                if (pending == null || !pending.requestId().equals(r.requestId())) {
                    return step.ignore("no summary " + r.requestId() + " is awaited");
                }
                if (r.error() != null || blank(r.summary())) {
                    step.emit(new ContextCompactionFailed(r.requestId(),
                            r.error() != null ? r.error() : "the model returned an empty summary"));
                } else {
                    step.emit(new ContextCompacted(r.requestId(), pending.throughSeq(), pending.messagesCovered(),
                            r.summary().strip(), r.usage()));
                }
                // A turn whose model call waited for the summary makes it now (with the full prompt if it failed).
                SessionState s = step.state;
                if (s.turn() != null && s.status() == SessionStatus.RUNNING && s.turn().pendingRequestId() == null
                        && s.turn().openToolCalls().isEmpty()) {
                    step.callModel();
                }
            }
            case StartInboxTask t -> {
                if (state.exists()) {
                    // The session id is the task's: the scheduler sent it again (around a restart), and the task
                    // has started already. Nothing changes, so it starts exactly once.
                    return step.ignore("inbox task " + envelope.sessionId() + " has started already");
                }
                if (t.text() == null || t.text().isBlank()) {
                    return step.ignore("inbox task " + envelope.sessionId() + " is empty");
                }
                step.emit(new SessionCreated(t.title() == null || t.title().isBlank() ? "Inbox task" : t.title(),
                        ctx.defaultMode()));
                step.emit(new UserMessagePosted(t.text()));
                attachMemoryIfChanged(step);
                step.callModel();
            }
            case StartSubAgent a -> {
                if (ChildStart.notStarted(state, a).isPresent()) {
                    return step.ignore(ChildStart.notStarted(state, a).get());
                }
                ChildStart.events(a).forEach(step::emit);
                attachMemoryIfChanged(step);
                step.callModel();
            }
            case RecordSubAgentResult r -> {
                Optional<List<SessionEvent>> recorded = SubAgentResults.record(state, r);
                if (recorded.isEmpty()) {
                    return step.ignore("no sub-agent " + r.childSessionId() + " of call " + r.callId() + " is awaited");
                }
                recorded.get().forEach(step::emit);
                continueIfAllAnswered(step);
            }
            case SetPermissionMode m -> {
                if (m.mode() == null) {
                    return step.reject("the mode must be auto, normal or manual");
                }
                step.emit(new PermissionModeChanged(m.mode(), envelope.userId()));
                // Whatever the new mode no longer asks a person about may run now, as if the person approved it.
                for (PendingApproval a : state.pendingApprovals()) {
                    // A plan waits for the person in every mode: plan-first asked for that, not the mode.
                    if (!PlanFirst.isPlanApproval(state, a) && !step.state.requiresApproval(a.tool(), a.risk())) {
                        step.emit(new ApprovalDecided(a.callId(), ApprovalDecision.APPROVED,
                                "the permission mode is now " + m.mode().wireName(), envelope.userId()));
                    }
                }
                releaseHeldCalls(step);
            }
            case DecideApproval d -> {
                if (d.decision() == null || d.decision() == ApprovalDecision.EXPIRED) {
                    return step.reject("the decision must be APPROVED, DENIED or ALWAYS");
                }
                Optional<PendingApproval> pending = state.pendingApproval(d.callId());
                if (pending.isEmpty()) {
                    // A decision is recorded once: a second one, or one for a call that never waited, changes nothing.
                    return step.reject(state.toolCalls().containsKey(d.callId())
                            ? "no approval is pending for call " + d.callId() + ": it was decided already or never needed"
                            : "no approval is pending for call " + d.callId() + ": there is no such call");
                }
                decideApproval(step, pending.get(), d.decision(), blankToNull(d.note()), envelope.userId());
            }
            case ExpireApproval x -> {
                Optional<PendingApproval> pending = state.pendingApproval(x.callId());
                if (pending.isEmpty()) {
                    // The scheduler may fire twice (around a restart), or after a person decided: nothing to do.
                    return step.ignore("no approval is pending for call " + x.callId());
                }
                decideApproval(step, pending.get(), ApprovalDecision.EXPIRED, null, null);
            }
            case ForkSession f -> {
                if (state.exists()) {
                    return step.reject("session already exists");
                }
                if (f.fromSessionId() == null || f.state() == null || f.atSeq() < 1) {
                    return step.reject("a fork needs the source session, its state and a seq of 1 or more");
                }
                String title = f.title() == null || f.title().isBlank()
                        ? "Fork of " + f.state().title() + " at " + f.atSeq() : f.title();
                step.emit(new SessionForked(f.fromSessionId(), f.atSeq(), f.checkpoint(), title, f.state()));
            }
            case RunUserTool t -> {
                if (!state.acceptsUserTool()) {
                    return step.reject("a turn is " + state.status().name().toLowerCase() + "; " + t.name()
                            + " can run once it has ended");
                }
                if (t.callId() == null || t.callId().isBlank() || state.toolCalls().containsKey(t.callId())) {
                    return step.reject("the call id is missing or already used");
                }
                Optional<ToolSpec> spec = ToolCatalog.find(t.name());
                if (spec.isEmpty() || spec.get().executor() != ToolSpec.Executor.SANDBOX) {
                    return step.reject("unknown sandbox tool '" + t.name() + "'");
                }
                step.emit(new ToolCallRequested(t.callId(), t.name(), t.arguments() == null ? "{}" : t.arguments(),
                        state.shell(), true));
            }
            case PostUserMessage m -> {
                if (m.text() == null || m.text().isBlank()) {
                    return step.reject("the message is empty");
                }
                if (Attachments.problem(m.images()) != null) {
                    return step.reject(Attachments.problem(m.images()));
                }
                if (!state.acceptsMessage()) {
                    return step.reject("a turn is already " + state.status().name().toLowerCase()
                            + "; cancel it, wait for it to end, or whisper to it instead of sending another message");
                }
                if (state.turnInProgress()) {
                    // The turn waits (a WAIT, or approvals): the person is here now, so the message wakes it and
                    // joins it, instead of a 409 that makes them cancel first.
                    wake(step, envelope.userId());
                    step.emit(new UserMessagePosted(m.text(), m.images()));
                    continueIfAllAnswered(step);
                } else {
                    step.emit(new UserMessagePosted(m.text(), m.images()));
                    attachMemoryIfChanged(step);
                    step.callModel();
                }
            }
            case GiveFeedback f -> {
                Optional<String> refusal = AnswerFeedback.refusal(state, f.seq(), f.vote());
                if (refusal.isPresent()) {
                    return step.reject(refusal.get());
                }
                step.emit(new SessionEvent.FeedbackGiven(f.seq(), f.vote(), envelope.userId()));
            }
            case RenameSession r -> {
                if (r.title() == null || r.title().isBlank()) {
                    return step.reject("the title is empty");
                }
                step.emit(new SessionRenamed(r.title().strip(), envelope.userId()));
            }
            case PostWhisper w -> {
                if (w.text() == null || w.text().isBlank()) {
                    return step.reject("the whisper is empty");
                }
                if (!state.acceptsWhisper()) {
                    // Nothing would ever take it: a whisper waits for the next model call of a running turn.
                    return step.reject("no turn is under way to whisper to; send a message instead");
                }
                step.emit(new WhisperQueued(ctx.ids().get(), w.text(), envelope.userId()));
            }
            case PostNotification n -> {
                // For the people following the session; it never touches a turn, so it is taken at any time.
                if (n.message() == null || n.message().isBlank()) {
                    return step.reject("the notification is empty");
                }
                step.emit(new NotificationPosted(n.message(), envelope.userId()));
            }
            case CancelTurn c -> {
                if (!state.acceptsCancel()) {
                    return step.reject("no turn is running");
                }
                cancelTurn(step, "cancelled by the user");
            }
            case DeleteSession d -> {
                if (state.acceptsCancel()) {
                    // Deleting stops what runs: the model stream, the command (the worker kills it on the cancel).
                    cancelTurn(step, "the session was deleted");
                }
                step.emit(new SessionDeleted(envelope.userId()));
            }
            case RecordModelResult r -> {
                if (!awaiting(state, r.requestId())) {
                    return step.ignore("no model call " + r.requestId() + " is awaited");
                }
                List<ToolCallSpec> calls = withUniqueIds(r.toolCalls(), state, ctx);
                step.emit(new ModelCallCompleted(r.requestId(), r.model(), r.content(), r.reasoning(),
                        calls, r.usage(), r.finishReason(), r.measure()));
                Optional<LoopGuards.Sighting> loop = LoopGuards.afterAnswer(step.state, ctx.loopLimits());
                if (loop.isPresent() && step.state.turn().loopWarnings().contains(loop.get().guard())) {
                    endInLoop(step, loop.get());
                } else if (calls.isEmpty()) {
                    if (loop.isPresent()) {
                        step.emit(new LoopWarned(loop.get().guard(), loop.get().reason()));
                    }
                    answer(step, r.content());
                } else {
                    loop.ifPresent(l -> step.emit(new LoopWarned(l.guard(), l.reason())));
                    dispatchToolCalls(step, calls);
                    continueIfAllAnswered(step);
                }
            }
            case RecordModelFailure f -> {
                if (!awaiting(state, f.requestId())) {
                    return step.ignore("no model call " + f.requestId() + " is awaited");
                }
                step.emit(new ModelCallFailed(f.requestId(), f.message()));
                step.emit(new TurnEnded(TurnOutcome.ERROR, null, "model call failed: " + f.message()));
            }
            case RecordModelRefusal f -> {
                if (!awaiting(state, f.requestId())) {
                    return step.ignore("no model call " + f.requestId() + " is awaited");
                }
                step.emit(new ModelCallRefused(f.requestId(), f.model(), f.reason()));
                step.emit(new TurnEnded(TurnOutcome.ERROR, null, f.reason()));
            }
            case MarkToolCallStarted m -> {
                ToolCallView view = state.toolCalls().get(m.callId());
                if (view == null || view.status() != ToolCallView.Status.REQUESTED) {
                    return step.ignore("tool call " + m.callId() + " is not waiting to start");
                }
                step.emit(new ToolCallStarted(m.callId(), m.worker()));
            }
            case RecordToolResult r -> {
                ToolCallView view = state.toolCalls().get(r.callId());
                if (view == null || view.status() == ToolCallView.Status.COMPLETED) {
                    return step.ignore("tool call " + r.callId() + " is unknown or already answered");
                }
                if (view.status() == ToolCallView.Status.PROPOSED && !view.byUser()) {
                    // Never sent to a worker (it awaits approval, or is held behind one): no worker can answer it.
                    return step.ignore("tool call " + r.callId() + " was not requested from a worker");
                }
                step.emit(new ToolCallCompleted(r.callId(), r.ok(), r.output(), r.error(), r.diff(), r.truncated(),
                        r.durationMs(), r.interrupted(), r.shell(), r.checkpoint(), r.refusal()));
                continueIfAllAnswered(step);
            }
            case WakeUp w -> {
                if (state.pendingWait() == null || !state.pendingWait().waitId().equals(w.waitId())) {
                    return step.ignore("wait " + w.waitId() + " is not pending");
                }
                String callId = state.pendingWait().callId();
                step.emit(new WaitEnded(w.waitId()));
                if (callId != null) {
                    step.emit(new ToolCallCompleted(callId, true, "Waited until " + state.pendingWait().until()
                            + ". It is now " + ctx.now() + ".", null, null, false, 0, false));
                }
                continueIfAllAnswered(step);
            }
            case UnknownInput u -> {
                if (!state.exists()) {
                    return step.ignore("unknown input type " + u.type() + " for a session that does not exist");
                }
                return step.reject("unknown input type " + u.type());
            }
        }
        return step.done();
    }

    /**
     * Ends the running turn as cancelled. Calls that never went to the worker (awaiting approval, or held behind one)
     * will never run: each gets its answer, so every call of the log stays paired with a result.
     */
    private static void cancelTurn(Step step, String why) {
        for (String callId : heldOrAwaiting(step.state)) {
            step.emit(new ToolCallCompleted(callId, false, null,
                    "not run: the turn was cancelled before this call was approved", null, false, 0, false));
        }
        String pendingRequest = step.state.turn() == null ? null : step.state.turn().pendingRequestId();
        step.emit(new TurnEnded(TurnOutcome.CANCELLED, null, why));
        if (pendingRequest != null) {
            step.effects.add(new Effect.StopModelCall(step.input.sessionId(), pendingRequest));
        }
    }

    /**
     * Every call needs an id no other call of the session has, or its result could answer the wrong call. Servers
     * usually provide one; a missing or repeated id is replaced, and the replacement is what gets recorded.
     */
    static List<ToolCallSpec> withUniqueIds(List<ToolCallSpec> calls, SessionState state, DecisionContext ctx) {
        java.util.Set<String> seen = new java.util.HashSet<>(state.toolCalls().keySet());
        List<ToolCallSpec> out = new ArrayList<>();
        for (ToolCallSpec c : calls) {
            String id = c.id();
            if (id == null || id.isBlank() || !seen.add(id)) {
                id = "call_" + ctx.ids().get();
                seen.add(id);
            }
            out.add(new ToolCallSpec(id, c.name(), c.arguments()));
        }
        return out;
    }

    private static boolean awaiting(SessionState state, String requestId) {
        return state.turn() != null && requestId != null && requestId.equals(state.turn().pendingRequestId());
    }

    /** At a turn's start: the memory document if it changed, then the insights chosen for the turn's prompt. */
    private static void attachMemoryIfChanged(Step step) {
        var memory = step.ctx.memory();
        if (memory != null) {
            String content = memory.content() == null ? "" : memory.content();
            if (!content.equals(step.state.memory())) {
                step.emit(new MemoryAttached(content, memory.version()));
            }
        }
        Remembering.atTurnStart(step.state, step.ctx.insights(), step.ctx.now(), step.ctx.injection())
                .ifPresent(step::emit);
    }

    /**
     * A reply without tool calls ends the turn, unless it asks to wait, or a person whispered meanwhile (the model
     * has not seen the whisper yet, so it is asked again with it), or it is empty while the empty-replies guard is
     * on (the model is asked again; the guard counts such replies).
     */
    private static void answer(Step step, String content) {
        Optional<WaitRequest> wait = WaitRequest.fromAnswer(content)
                .filter(w -> withinReach(w.until(), step.ctx.now()));
        boolean empty = content == null || content.isBlank();
        if (wait.isPresent()) {
            step.emit(new WaitScheduled(step.ctx.ids().get(), wait.get().until(), wait.get().reason(), null));
        } else if (!step.state.queuedWhispers().isEmpty()
                || (empty && step.ctx.loopLimits().emptyReplies() > 0)) {
            step.callModel();
        } else {
            step.emit(new TurnEnded(TurnOutcome.COMPLETED, content, null));
        }
    }

    /**
     * A guard that warned in this turn sees a loop again: the turn ends. Calls of the last answer that have not gone
     * to a worker are answered "not run", so every call of the log keeps its result.
     */
    private static void endInLoop(Step step, LoopGuards.Sighting loop) {
        SessionState s = step.state;
        for (String callId : s.turn().openToolCalls()) {
            ToolCallView view = s.toolCalls().get(callId);
            if (view != null && view.status() == ToolCallView.Status.PROPOSED) {
                step.emit(new ToolCallCompleted(callId, false, null,
                        "not run: the loop guard ended the turn", null, false, 0, false));
            }
        }
        step.emit(new TurnEnded(TurnOutcome.LOOP_DETECTED, null, loop.reason()));
    }

    /**
     * A person's message to a waiting turn ends what it waits for: the wait ends early (the wait tool's call is
     * answered as interrupted), pending approvals are denied and the calls held behind them answered "not run". The
     * person chose to talk rather than decide, and the model hears why from each call's result.
     */
    private static void wake(Step step, String by) {
        SessionState s = step.state;
        for (String callId : heldOrAwaiting(s)) {
            if (s.pendingApproval(callId).isPresent()) {
                step.emit(new ApprovalDecided(callId, ApprovalDecision.DENIED, WOKEN_NOTE, by));
                step.emit(new ToolCallCompleted(callId, false, null, "not run: " + WOKEN_NOTE
                        + " of deciding on this call", null, false, 0, false));
            } else {
                step.emit(new ToolCallCompleted(callId, false, null, "not run: the user sent a new message before "
                        + "this call was released", null, false, 0, false));
            }
        }
        if (s.pendingWait() != null) {
            step.emit(new WaitEnded(s.pendingWait().waitId(), true));
            if (s.pendingWait().callId() != null) {
                step.emit(new ToolCallCompleted(s.pendingWait().callId(), true, "The wait until "
                        + s.pendingWait().until() + " was interrupted at " + step.ctx.now()
                        + " by a message from the user.", null, null, false, 0, false));
            }
        }
    }

    static final String WOKEN_NOTE = "the person sent a new message instead";

    /** The most a session's own system prompt may have; the gateway refuses longer ones before they get here. */
    static final int MAX_SYSTEM_PROMPT_CHARS = 16_000;

    /**
     * Records the session's own system prompt, or refuses it (false): a preset must exist, and a text of the
     * session's own must fit. Blank parts mean none.
     */
    private static boolean setSystemPrompt(Step step, String preset, String systemPrompt, String by) {
        Optional<dev.agentbus.events.context.Preset> found = dev.agentbus.events.context.Presets.find(preset);
        if (!blank(preset) && found.isEmpty()) {
            step.reject("unknown preset '" + preset.strip() + "'; the presets are "
                    + dev.agentbus.events.context.Presets.names());
            return false;
        }
        if (systemPrompt != null && systemPrompt.length() > MAX_SYSTEM_PROMPT_CHARS) {
            step.reject("the system prompt is longer than " + MAX_SYSTEM_PROMPT_CHARS + " characters");
            return false;
        }
        step.emit(new SystemPromptChanged(found.map(dev.agentbus.events.context.Preset::name).orElse(null),
                blank(systemPrompt) ? null : systemPrompt.strip(), by));
        return true;
    }

    /** Records the session's own model and sampling, or refuses them (false) with the reason. */
    private static boolean chooseModel(Step step, String model, Sampling sampling, String by) {
        ModelChoices.Result r = ModelChoices.choose(model, sampling, by);
        if (r.refusal() != null) {
            step.reject(r.refusal());
            return false;
        }
        step.emit(r.event());
        return true;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static void dispatchToolCalls(Step step, List<ToolCallSpec> calls) {
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
                    requestApproval(step, call.id(), tool, args.toString());
                } else if (step.state.pendingApprovals().isEmpty()) {
                    step.emit(new ToolCallRequested(call.id(), call.name(), args.toString(), step.state.shell(), false));
                }
                // else: held until the calls before it are decided (releaseHeldCalls), so calls still run in the
                // order the model asked: a read after a write waiting for approval must not run first.
            } else if (waitTaken) {
                step.emit(failed(call, "only one wait per reply"));
            } else {
                Optional<WaitRequest> wait = waitFromArguments(args, step.ctx.now());
                if (wait.isEmpty()) {
                    step.emit(failed(call, "wait needs 'until' (an ISO-8601 time) or 'seconds' (0 or more), at most "
                            + MAX_WAIT.toDays() + " days ahead"));
                } else {
                    waitTaken = true;
                    step.emit(new WaitScheduled(step.ctx.ids().get(), wait.get().until(), wait.get().reason(),
                            call.id()));
                }
            }
        }
    }

    static Optional<WaitRequest> waitFromArguments(JsonNode args, Instant now) {
        String reason = args.hasNonNull("reason") ? args.get("reason").asText() : null;
        if (args.hasNonNull("until")) {
            return WaitRequest.parseTime(args.get("until").asText()).map(t -> new WaitRequest(t, reason))
                    .filter(w -> withinReach(w.until(), now));
        }
        if (args.hasNonNull("seconds") && args.get("seconds").canConvertToLong()) {
            long seconds = args.get("seconds").asLong();
            if (seconds >= 0 && seconds <= MAX_WAIT.toSeconds()) {
                return Optional.of(new WaitRequest(now.plusSeconds(seconds), reason));
            }
        }
        return Optional.empty();
    }

    /** A wait further away than this is a mistake (or a trick), not a plan: it is refused, never scheduled. */
    static final java.time.Duration MAX_WAIT = java.time.Duration.ofDays(366);

    static boolean withinReach(Instant until, Instant now) {
        return !until.isAfter(now.plus(MAX_WAIT));
    }

    /**
     * Records a decision on a pending approval: an allowed call is requested from the worker (once the calls before
     * it are decided), a refused one is answered with an error that tells the model why, and the turn goes on as
     * after any result.
     */
    private static void decideApproval(Step step, PendingApproval pending, ApprovalDecision decision, String note,
                                       String by) {
        boolean plan = PlanFirst.isPlanApproval(step.state, pending);
        step.emit(new ApprovalDecided(pending.callId(), decision, note, by));
        if (decision == ApprovalDecision.ALWAYS) {
            for (PendingApproval other : step.state.pendingApprovals()) {
                if (other.tool().equals(pending.tool())) {
                    step.emit(new ApprovalDecided(other.callId(), ApprovalDecision.APPROVED,
                            pending.tool() + " is allowed for the rest of the session", by));
                }
            }
        }
        if (plan) {
            // A plan_create call has nothing to run: the decision itself is its answer.
            step.emit(PlanFirst.decided(pending, decision, note, by));
        } else if (!decision.allows()) {
            String why = decision == ApprovalDecision.EXPIRED
                    ? "not run: nobody approved this call before its approval expired at " + pending.expiresAt()
                    : "not run: " + (by == null ? "the user" : "the user " + by) + " denied this call"
                            + (note == null ? "" : " with the note: " + note);
            step.emit(new ToolCallCompleted(pending.callId(), false, null, why, null, false, 0, false));
        }
        releaseHeldCalls(step);
        continueIfAllAnswered(step);
    }

    /**
     * Sends the turn's calls that were held back to the worker, in the order the model asked, up to the first one
     * still awaiting a person: approved calls, and calls that needed no approval but came after one that did.
     */
    private static void releaseHeldCalls(Step step) {
        SessionState s = step.state;
        if (s.turn() == null) {
            return;
        }
        for (String callId : s.turn().openToolCalls()) {
            if (s.pendingApproval(callId).isPresent()) {
                return;
            }
            if (isHeld(s, callId)) {
                // Approved, or asked for when the mode did not ask about it: a later, stricter mode applies to the
                // calls the model asks for after it, not to these.
                ToolCallView view = s.toolCalls().get(callId);
                step.emit(new ToolCallRequested(callId, view.name(), normalized(view.arguments()), step.state.shell(),
                        false));
            }
        }
    }

    /** The call waits for a person, until the approval time-out from now; the reason says why, for that person. */
    private static void requestApproval(Step step, String callId, ToolSpec tool, String arguments) {
        step.emit(new ApprovalRequested(callId, tool.name(), arguments, tool.risk(),
                step.state.permissionMode().wireName() + " mode: " + tool.name() + " " + tool.risk().meaning()
                        + " (" + tool.risk().name().toLowerCase(java.util.Locale.ROOT) + " risk)",
                step.ctx.now().plus(step.ctx.approvalTimeout())));
    }

    /** The arguments as dispatch sends them: compact JSON ({} when absent). A held call was checked to be an object. */
    private static String normalized(String arguments) {
        try {
            return Json.mapper().readTree(arguments == null || arguments.isBlank() ? "{}" : arguments).toString();
        } catch (IOException e) {
            return arguments;
        }
    }

    /** The turn's calls that never went to a worker: awaiting approval, or held behind one. */
    private static List<String> heldOrAwaiting(SessionState s) {
        if (s.turn() == null) {
            return List.of();
        }
        return s.turn().openToolCalls().stream()
                .filter(id -> s.pendingApproval(id).isPresent() || isHeld(s, id)).toList();
    }

    /** A sandbox call of the model that is neither sent to a worker, nor awaiting approval, nor answered. */
    private static boolean isHeld(SessionState s, String callId) {
        ToolCallView view = s.toolCalls().get(callId);
        return view != null && view.status() == ToolCallView.Status.PROPOSED && !view.byUser()
                && s.pendingApproval(callId).isEmpty()
                && McpTools.find(s, view.name()).map(t -> t.executor() == ToolSpec.Executor.SANDBOX).orElse(false);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    private static ToolCallCompleted failed(ToolCallSpec call, String error) {
        return new ToolCallCompleted(call.id(), false, null, error, null, false, 0, false);
    }

    /**
     * When every tool call of the turn is answered and no wait is pending, the model gets the results — unless a
     * loop guard that warned in this turn sees a loop again. A guard that sees one for the first time warns first.
     */
    private static void continueIfAllAnswered(Step step) {
        SessionState s = step.state;
        if (s.turn() == null || s.status() != SessionStatus.RUNNING || s.turn().pendingRequestId() != null
                || !s.turn().openToolCalls().isEmpty()) {
            return;
        }
        List<LoopGuards.Sighting> loops = LoopGuards.beforeNextCall(s, step.ctx.loopLimits());
        for (LoopGuards.Sighting loop : loops) {
            if (s.turn().loopWarnings().contains(loop.guard())) {
                endInLoop(step, loop);
                return;
            }
        }
        if (!loops.isEmpty()) {
            step.emit(new LoopWarned(loops.getFirst().guard(), loops.getFirst().reason()));
        }
        step.callModel();
    }

    /** Accumulates the events of one decision, folding each into the state so later rules see its effect. */
    private static final class Step {
        final InputEnvelope input;
        final DecisionContext ctx;
        final List<SessionEvent> events = new ArrayList<>();
        final List<Effect> effects = new ArrayList<>();
        final List<Outgoing> outgoing = new ArrayList<>();
        SessionState state;

        Step(SessionState state, InputEnvelope input, DecisionContext ctx) {
            this.state = state;
            this.input = input;
            this.ctx = ctx;
        }

        void emit(SessionEvent event) {
            events.add(event);
            state = SessionFold.evolve(state, new EventEnvelope("pending", input.sessionId(), state.lastSeq() + 1,
                    ctx.now(), input.id(), state.userId() != null ? state.userId() : input.userId(), event));
        }

        void callModel() {
            int next = state.turn().iterations() + 1;
            int cap = SubAgentTools.maxIterations(state, ctx.maxIterations());
            if (next > cap) {
                emit(new TurnEnded(TurnOutcome.ITERATION_CAP, null, "stopped after " + cap
                        + " model calls in one turn (the iteration cap)"));
                return;
            }
            // A summary being written comes first: its arrival makes this call (see RecordContextSummary).
            if (state.context().awaitsSummary()) {
                return;
            }
            Optional<String> full = Compaction.automatic(state, ctx.contextLimits());
            if (full.isPresent()) {
                Optional<Compaction.Cut> cut = Compaction.cut(state, ctx.contextLimits().keepRecentMessages());
                if (cut.isPresent()) {
                    compact(cut.get(), full.get(), null);
                    return;
                }
            }
            // Whispers go into this call: delivered into the conversation first, so the prompt, built from the
            // state alone, carries them.
            for (QueuedWhisper w : state.queuedWhispers()) {
                emit(new WhisperDelivered(w.whisperId()));
            }
            String requestId = ctx.ids().get();
            emit(new ModelCallStarted(requestId, next, ModelChoices.asked(state, ctx.modelDefaults())));
            ThinkingTemperature.warning(state).ifPresent(this::emit);
            effects.add(new Effect.CallModel(input.sessionId(), requestId));
        }

        /** The decision to summarise, recorded; the summarising call is the effect, made once after the commit. */
        void compact(Compaction.Cut cut, String reason, String by) {
            String requestId = ctx.ids().get();
            emit(new ContextCompactionRequested(requestId, cut.throughSeq(), cut.messagesCovered(), reason, by));
            effects.add(new Effect.Summarise(input.sessionId(), requestId));
        }

        Decision reject(String reason) {
            String type = input.input() instanceof UnknownInput u
                    ? u.type() : EventCodec.INPUT_TYPES.nameOf(input.input().getClass());
            emit(new InputRejected(input.id(), type, reason));
            return done();
        }

        Decision ignore(String reason) {
            return new Decision(List.of(), List.of(), state, reason);
        }

        Decision done() {
            List<Outgoing> sends = new ArrayList<>(outgoing);
            sends.addAll(SubAgentMessages.after(state, events));
            return new Decision(events, effects, state, null, sends);
        }
    }
}
