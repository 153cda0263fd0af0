package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput.UnknownInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.QueuedWhisper;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentMessages;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentTools;
import dev.agentbus.orchestrator.deciding.models.ModelChoices;
import dev.agentbus.orchestrator.deciding.models.ThinkingTemperature;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One decision being made: the events so far, each folded into the state at once so later rules see its effect, the
 * effects and the inputs for other sessions. Its methods are the moves every rule shares: record an event, call the
 * model (or end the turn at the iteration cap, or compact first), go on once every call is answered, reject or ignore
 * the input.
 */
final class Step {
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

    /**
     * When every tool call of the turn is answered and no wait is pending, the model gets the results — unless a
     * loop guard that warned in this turn sees a loop again. A guard that sees one for the first time warns first.
     */
    void continueIfAllAnswered() {
        SessionState s = state;
        if (s.turn() == null || s.status() != SessionStatus.RUNNING || s.turn().pendingRequestId() != null
                || !s.turn().openToolCalls().isEmpty()) {
            return;
        }
        List<LoopGuards.Sighting> loops = LoopGuards.beforeNextCall(s, ctx.loopLimits());
        for (LoopGuards.Sighting loop : loops) {
            if (s.turn().loopWarnings().contains(loop.guard())) {
                endInLoop(loop);
                return;
            }
        }
        if (!loops.isEmpty()) {
            emit(new LoopWarned(loops.getFirst().guard(), loops.getFirst().reason()));
        }
        callModel();
    }

    /**
     * A guard that warned in this turn sees a loop again: the turn ends. Calls of the last answer that have not gone
     * to a worker are answered "not run", so every call of the log keeps its result.
     */
    void endInLoop(LoopGuards.Sighting loop) {
        SessionState s = state;
        for (String callId : s.turn().openToolCalls()) {
            ToolCallView view = s.toolCalls().get(callId);
            if (view != null && view.status() == ToolCallView.Status.PROPOSED) {
                emit(new ToolCallCompleted(callId, false, null,
                        "not run: the loop guard ended the turn", null, false, 0, false));
            }
        }
        emit(new TurnEnded(TurnOutcome.LOOP_DETECTED, null, loop.reason()));
    }
}
