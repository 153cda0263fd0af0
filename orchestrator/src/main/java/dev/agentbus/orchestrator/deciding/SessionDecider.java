package dev.agentbus.orchestrator.deciding;

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
import dev.agentbus.orchestrator.deciding.remembering.OwnerOnlyMemory;
import dev.agentbus.orchestrator.deciding.remembering.Remembering;
import dev.agentbus.events.input.SessionInput.RecordModelFailure;
import dev.agentbus.events.input.SessionInput.RecordModelRefusal;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.UnknownInput;
import dev.agentbus.events.input.SessionInput.WakeUp;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallRefused;
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
import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;

import dev.agentbus.orchestrator.deciding.mcp.McpTools;
import dev.agentbus.orchestrator.deciding.delegating.ChildStart;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentResults;
import dev.agentbus.orchestrator.deciding.models.ModelChoices;
import dev.agentbus.orchestrator.deciding.vision.Attachments;
import dev.agentbus.orchestrator.deciding.planning.PlanFirst;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent loop as a pure function: {@code decide(state, input) -> events + effects}. This class is its table of
 * contents: one case per input, each checking the input against the state and recording what follows. The rules
 * that need more room live next to it: {@link Step} (record an event, call the model, go on once every call is
 * answered), {@link ToolCallDispatch} (where each call of an answer goes), {@link Approvals} (calls that wait for a
 * person), {@link TurnInterruptions} (cancel, and a message that wakes a waiting turn), {@link SessionSettings}
 * (the session's system prompt and model), {@link WaitRequest}, {@link LoopGuards} and {@link Compaction}; and in
 * the subpackages todos, plans and plan-first mode ({@code planning}), notifications ({@code notifying}), memory
 * ({@code remembering}), sub-agents ({@code delegating}), MCP tools ({@code mcp}), models ({@code models}) and
 * images ({@code vision}). Each rule is tested with given events / when input / then events, no Kafka needed. It
 * validates and explains; the fold only assigns.
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
                    SessionSettings.setSystemPrompt(step, c.preset(), c.systemPrompt(), envelope.userId());
                }
                if (ModelChoices.chosen(c.model(), c.sampling())) {
                    // Likewise: a model choice out of bounds is refused on its own, the session stays.
                    SessionSettings.chooseModel(step, c.model(), c.sampling(), envelope.userId());
                }
            }
            case SetSessionModel m -> {
                // Taken at any time, also mid-turn: the next model call asks for it (see Step.callModel).
                if (!SessionSettings.chooseModel(step, m.model(), m.sampling(), envelope.userId())) {
                    return step.done();
                }
            }
            case SetSystemPrompt p -> {
                if (!SessionSettings.setSystemPrompt(step, p.preset(), p.systemPrompt(), envelope.userId())) {
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
                attachMemory(step, null);
                step.callModel();
            }
            case StartSubAgent a -> {
                if (ChildStart.notStarted(state, a).isPresent()) {
                    return step.ignore(ChildStart.notStarted(state, a).get());
                }
                ChildStart.events(a).forEach(step::emit);
                if (a.incognito()) {
                    // Its parent may be a turn a group member started (TaskCall): no memory document either.
                    OwnerOnlyMemory.withhold(step.state).forEach(step::emit);
                } else {
                    attachMemory(step, null);
                }
                step.callModel();
            }
            case RecordSubAgentResult r -> {
                Optional<List<SessionEvent>> recorded = SubAgentResults.record(state, r);
                if (recorded.isEmpty()) {
                    return step.ignore("no sub-agent " + r.childSessionId() + " of call " + r.callId() + " is awaited");
                }
                recorded.get().forEach(step::emit);
                step.continueIfAllAnswered();
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
                Approvals.releaseHeldCalls(step);
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
                if (blankToNull(d.note()) != null && OwnerOnlyMemory.byMember(state, envelope.userId())) {
                    // The model reads a denial's note: a member's words join the owner's turn, as a whisper does.
                    OwnerOnlyMemory.withhold(state).forEach(step::emit);
                }
                Approvals.decide(step, pending.get(), d.decision(), blankToNull(d.note()), envelope.userId());
            }
            case ExpireApproval x -> {
                Optional<PendingApproval> pending = state.pendingApproval(x.callId());
                if (pending.isEmpty()) {
                    // The scheduler may fire twice (around a restart), or after a person decided: nothing to do.
                    return step.ignore("no approval is pending for call " + x.callId());
                }
                Approvals.decide(step, pending.get(), ApprovalDecision.EXPIRED, null, null);
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
                    TurnInterruptions.wake(step, envelope.userId());
                    step.emit(new UserMessagePosted(m.text(), m.images()));
                    // A member's message joins the owner's turn: from here on it runs without the owner's memory.
                    if (OwnerOnlyMemory.byMember(step.state, envelope.userId())) {
                        OwnerOnlyMemory.withhold(step.state).forEach(step::emit);
                    }
                    step.continueIfAllAnswered();
                } else {
                    step.emit(new UserMessagePosted(m.text(), m.images()));
                    attachMemory(step, envelope.userId());
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
                // The whisper reaches the turn's next model call, which then runs without the owner's memory.
                if (OwnerOnlyMemory.byMember(step.state, envelope.userId())) {
                    OwnerOnlyMemory.withhold(step.state).forEach(step::emit);
                }
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
                TurnInterruptions.cancelTurn(step, "cancelled by the user");
            }
            case DeleteSession d -> {
                if (state.acceptsCancel()) {
                    // Deleting stops what runs: the model stream, the command (the worker kills it on the cancel).
                    TurnInterruptions.cancelTurn(step, "the session was deleted");
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
                    step.endInLoop(loop.get());
                } else if (calls.isEmpty()) {
                    if (loop.isPresent()) {
                        step.emit(new LoopWarned(loop.get().guard(), loop.get().reason()));
                    }
                    answer(step, r.content());
                } else {
                    loop.ifPresent(l -> step.emit(new LoopWarned(l.guard(), l.reason())));
                    ToolCallDispatch.dispatch(step, calls);
                    step.continueIfAllAnswered();
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
                step.continueIfAllAnswered();
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
                step.continueIfAllAnswered();
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

    /**
     * At a turn's start: the memory document if it changed, then the insights chosen for the turn's prompt; none of
     * the owner's memory when {@code startedBy} is a group member ({@link OwnerOnlyMemory}).
     */
    private static void attachMemory(Step step, String startedBy) {
        Remembering.atTurnStart(step.state, startedBy, step.ctx.memory(), step.ctx.insights(), step.ctx.now(),
                step.ctx.injection()).forEach(step::emit);
    }

    /**
     * A reply without tool calls ends the turn, unless it asks to wait, or a person whispered meanwhile (the model
     * has not seen the whisper yet, so it is asked again with it), or it is empty while the empty-replies guard is
     * on (the model is asked again; the guard counts such replies).
     */
    private static void answer(Step step, String content) {
        Optional<WaitRequest> wait = WaitRequest.fromAnswer(content)
                .filter(w -> WaitRequest.withinReach(w.until(), step.ctx.now()));
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

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
