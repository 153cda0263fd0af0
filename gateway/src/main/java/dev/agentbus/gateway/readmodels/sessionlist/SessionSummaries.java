package dev.agentbus.gateway.readmodels.sessionlist;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UnknownEvent;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.gateway.readmodels.Sql;

import java.time.Instant;

/**
 * The pure fold of the sessions read model: {@code row' = evolve(row, event)}. It agrees with
 * {@link dev.agentbus.events.state.SessionFold} on status, usage and counts, but keeps only what a list needs, so
 * it can live in a table row instead of a whole folded state. Like the fold, the switch names every event type, so
 * a new type does not compile until someone says what it does to the list.
 */
final class SessionSummaries {
    public static final int PREVIEW_CHARS = 500;

    private SessionSummaries() {
    }

    /**
     * The row after the event; {@code row} is null before the session's first event. Returns the row unchanged for an
     * event it has already applied (its seq is not above the row's), and null for an event of a session whose
     * creation it never saw: there is nothing sensible to list for it.
     */
    public static SessionSummary evolve(SessionSummary row, EventEnvelope e) {
        if (row != null && e.seq() <= row.lastSeq()) {
            return row;
        }
        if (row == null) {
            return switch (e.event()) {
                case SessionCreated c -> new SessionSummary(e.sessionId(), e.userId(), c.title(), SessionStatus.IDLE,
                        false, e.time(), e.time(), e.seq(), null, null, null, null, null, 0, 0, TokenUsage.ZERO, null);
                case SessionForked f -> forked(e, f);
                default -> null;
            };
        }
        Row b = new Row(row);
        b.lastSeq = e.seq();
        b.updatedAt = e.time();
        switch (e.event()) {
            case SessionCreated c -> {
                // A second creation of a live session is never recorded (the decider rejects it); nothing to do.
            }
            case SessionForked f -> {
                // Always seq 1, so it never reaches an existing row.
            }
            case UserMessagePosted m -> {
                b.status = SessionStatus.RUNNING;
                // A message that woke a waiting turn joins it, as in the fold.
                b.turns = row.inTurn() ? row.turns() : row.turns() + 1;
                b.inTurn = true;
                b.lastMessage(m.text(), "user", e);
            }
            case ModelCallCompleted m -> {
                b.usage = row.usage().plus(m.usage());
                b.modelCalls = row.modelCalls() + 1;
                b.lastModel = m.model();
                if (m.content() != null && !m.content().isBlank()) {
                    b.lastMessage(m.content(), "assistant", e);
                }
            }
            case SessionRenamed r -> {
                if (r.title() != null && !r.title().isBlank()) {
                    b.title = r.title();
                }
            }
            case SessionDeleted d -> {
                // The row stays so that a replay folds the same, but it is listed nowhere and keeps no words of it.
                b.status = SessionStatus.DELETED;
                b.inTurn = false;
                b.lastMessage = null;
                b.lastMessageRole = null;
                b.lastMessageAt = null;
            }
            case WhisperQueued w -> {
                // A note for the model; the list shows people's messages and answers.
            }
            case WhisperDelivered w -> {
            }
            case LoopWarned w -> {
                // The turn.ended.v1 that may follow says how the turn ended.
            }
            case WaitScheduled w -> b.status = SessionStatus.WAITING;
            case WaitEnded w -> b.status = row.inTurn() ? SessionStatus.RUNNING : SessionStatus.IDLE;
            case TurnEnded t -> {
                b.status = SessionStatus.IDLE;
                b.inTurn = false;
                b.lastOutcome = t.outcome();
            }
            case MemoryAttached m -> {
                // Not shown in the list.
            }
            case SessionEvent.InsightsInjected i -> {
                // Not shown in the list.
            }
            case SessionEvent.FeedbackGiven f -> {
                // Not shown in the list.
            }
            case SessionEvent.MemoryManaged m -> {
                // Not shown in the list.
            }
            case ModelCallStarted m -> {
                // The turn is already RUNNING since its message.
            }
            case ModelCallFailed m -> {
                // The turn.ended.v1 that follows says how the turn ended.
            }
            case SessionEvent.ModelCallRefused m -> {
                // The turn.ended.v1 that follows says how the turn ended.
            }
            case SessionEvent.ModelWarned m -> {
                // Shown in the session, not the list.
            }
            case ToolCallRequested r -> {
                // Tool calls are in the audit read model.
            }
            case ToolCallStarted s -> {
                // Tool calls are in the audit read model.
            }
            case ToolCallCompleted c -> {
                // Tool calls are in the audit read model.
            }
            case InputRejected r -> {
                // A rejection changes nothing.
            }
            case NotificationPosted n -> {
                // For the people following the session; changes nothing here.
            }
            case PlanningEvent p -> {
                // Todos and plans are shown in the session, not in the list.
            }
            case PermissionModeChanged m -> {
                // Not shown in the list.
            }
            case ApprovalRequested a -> b.status = SessionStatus.AWAITING_APPROVAL;
            case ApprovalDecided d -> {
                // The list does not count approvals: after a decision it shows the turn running (the session's own
                // state, GET /api/v1/sessions/{id}, says whether more approvals are pending).
                if (b.inTurn && row.status() == SessionStatus.AWAITING_APPROVAL) {
                    b.status = SessionStatus.RUNNING;
                }
            }
            case SessionEvent.SystemPromptChanged p -> {
            }
            case SessionEvent.ModelSettingsChanged m -> {
            }
            case SessionEvent.SubAgentStarted a -> {
                // A parent's children are in its own state (GET /api/v1/sessions/{id}); each child has its own row.
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
            }
            case UnknownEvent u -> {
                // A newer writer's event: it still moves lastSeq and updatedAt, like the fold.
            }
        }
        return b.build();
    }

    /** A fork starts from the source's state at the fork point: its totals and its last message come along. */
    private static SessionSummary forked(EventEnvelope e, SessionForked f) {
        SessionState from = f.state() == null ? SessionState.initial(e.sessionId()) : f.state();
        Row b = new Row(new SessionSummary(e.sessionId(), e.userId(), f.title() != null ? f.title() : from.title(),
                SessionStatus.IDLE, false, e.time(), e.time(), e.seq(), null, null, null, from.lastOutcome(),
                from.lastModel(), from.turns(), from.modelCalls(), from.usage(), f.fromSessionId()));
        for (Message m : from.messages().reversed()) {
            if (m instanceof Message.User u) {
                b.lastMessage(u.text(), "user", e);
                break;
            }
            if (m instanceof Message.Assistant a && a.content() != null && !a.content().isBlank()) {
                b.lastMessage(a.content(), "assistant", e);
                break;
            }
        }
        return b.build();
    }

    /** A mutable copy used inside one evolve call, so the record stays immutable. */
    private static final class Row {
        final SessionSummary from;
        String title;
        SessionStatus status;
        boolean inTurn;
        Instant updatedAt;
        long lastSeq;
        String lastMessage;
        String lastMessageRole;
        Instant lastMessageAt;
        TurnOutcome lastOutcome;
        String lastModel;
        int turns;
        int modelCalls;
        TokenUsage usage;

        Row(SessionSummary s) {
            from = s;
            title = s.title();
            status = s.status();
            inTurn = s.inTurn();
            updatedAt = s.updatedAt();
            lastSeq = s.lastSeq();
            lastMessage = s.lastMessage();
            lastMessageRole = s.lastMessageRole();
            lastMessageAt = s.lastMessageAt();
            lastOutcome = s.lastOutcome();
            lastModel = s.lastModel();
            turns = s.turns();
            modelCalls = s.modelCalls();
            usage = s.usage();
        }

        void lastMessage(String text, String role, EventEnvelope e) {
            lastMessage = Sql.cut(text, PREVIEW_CHARS);
            lastMessageRole = role;
            lastMessageAt = e.time();
        }

        SessionSummary build() {
            return new SessionSummary(from.sessionId(), from.userId(), title, status, inTurn,
                    from.createdAt(), updatedAt, lastSeq, lastMessage, lastMessageRole, lastMessageAt, lastOutcome,
                    lastModel, turns, modelCalls, usage, from.forkedFrom());
        }
    }
}
