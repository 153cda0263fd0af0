package dev.agentbus.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.SessionStream;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UnknownEvent;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Turns one turn's stream (session events plus live deltas) into terminal output, and decides the exit code when
 * the turn ends. This class knows which turn is ours (our message's input id, whether it started) and sends each
 * event to the part that shows it: the model's words ({@link StreamedText}), tool calls ({@link ToolLines}), what
 * waits for a person ({@link ApprovalLines}), everything else that happened to the session ({@link SessionNotices})
 * and the end of the turn ({@link TurnEnd}). The switch names every event, so a new one does not compile until
 * someone decides how the terminal shows it.
 *
 * <p>The durable event is the truth and deltas are a preview: a model call whose content was not streamed is printed
 * from model_call.completed, late deltas for a completed call are dropped, and the final answer is printed unless it
 * already appeared.
 */
public final class TurnRenderer implements SessionStream.Listener {
    private final Printer printer;
    private final StreamedText text;
    private final ToolLines tools;
    private final ApprovalLines approvals;
    private final SessionNotices notices;
    private final TurnEnd end;

    private String inputId;
    private boolean turnStarted;

    public TurnRenderer(Printer printer, boolean quiet, boolean showReasoning) {
        this.printer = printer;
        this.text = new StreamedText(printer, quiet, showReasoning);
        this.tools = new ToolLines(printer, quiet, text);
        this.approvals = new ApprovalLines(printer, quiet, text);
        this.notices = new SessionNotices(printer, quiet, text);
        this.end = new TurnEnd(printer, quiet, text);
    }

    /** Who decides a plan that waits for approval; without one the renderer only says how to decide it. */
    public void reviewPlansWith(PlanReviewer reviewer) {
        approvals.reviewPlansWith(reviewer);
    }

    /**
     * Renders a turn that is under way already (chat follows it again after a decision): its end is ours,
     * {@code pending} are the calls already waiting for approval, and {@code tools} names the tools of calls
     * requested before (call id to tool), so their decisions and results say which tool they were.
     */
    public void continueTurn(Collection<String> pending, Map<String, String> tools) {
        turnStarted = true;
        approvals.continueTurn(pending, tools);
    }

    /** Tells a person how to decide an approval with chat's {@code /approve} and {@code /deny}. */
    public void useChatHints() {
        approvals.useChatHints();
    }

    /** The calls that wait for a person's decision as far as the events shown so far say, oldest first. */
    public List<String> pendingApprovals() {
        return approvals.pending();
    }

    /** The id the gateway gave our message, to recognise its rejection. */
    public void expectInput(String id) {
        this.inputId = id;
    }

    @Override
    public void onWarning(String message) {
        printer.warn(message);
    }

    @Override
    public Integer onEvent(JsonNode envelope) {
        EventEnvelope event;
        try {
            event = EventCodec.eventFromNode(envelope);
        } catch (MalformedRecordException e) {
            printer.warn("skipped an event the CLI cannot read: " + e.getMessage());
            return null;
        }
        return onEvent(event);
    }

    /** Renders one event; returns the exit code when it ends our turn. */
    public Integer onEvent(EventEnvelope envelope) {
        switch (envelope.event()) {
            case SessionCreated created -> {
                // nothing to show: the session id was printed when it was created
            }
            case SessionForked forked -> notices.forked(forked);
            case UserMessagePosted posted -> turnStarted = true;
            case MemoryAttached memory -> {
                // part of the system prompt, not of the conversation
            }
            case SessionEvent.InsightsInjected insights -> {
                // part of the system prompt, not of the conversation
            }
            case SessionEvent.FeedbackGiven feedback -> {
                // a person's vote, shown by the web UI's thumbs
            }
            case SessionEvent.MemoryManaged managed -> {
                // the manage_memory call's result says what changed
            }
            // tokens (or the completed call) will show what it did; from now on its tokens may be printed
            case ModelCallStarted started -> text.modelCallStarted(started.requestId());
            case ModelCallCompleted completed -> {
                if (turnStarted) {
                    end.add(completed.usage());
                }
                text.modelCallCompleted(completed);
            }
            case ModelCallFailed failed -> notices.modelCallFailed(failed);
            case ToolCallRequested requested -> {
                approvals.named(requested.callId(), requested.name());
                tools.requested(requested);
            }
            case ToolCallStarted started -> {
                // the request line already says it is coming
            }
            case SessionEvent.SubAgentStarted started -> {
                approvals.named(started.callId(), "task");
                tools.subAgentStarted(started);
            }
            case SessionEvent.SubAgentFinished finished -> {
                // the task call's result follows at once and shows the answer
            }
            case ToolCallCompleted completed -> tools.completed(completed);
            case WaitScheduled wait -> notices.waitScheduled(wait);
            case WaitEnded ended -> notices.waitEnded(ended);
            case SessionRenamed renamed -> notices.renamed(renamed);
            case SessionDeleted deleted -> notices.deleted(deleted);
            case WhisperQueued whisper -> notices.whisperQueued(whisper);
            case WhisperDelivered delivered -> notices.whisperDelivered(delivered);
            case SessionEvent.ModelCallRefused refused -> notices.modelCallRefused(refused);
            case SessionEvent.ModelWarned warned -> notices.modelWarned(warned);
            case LoopWarned warned -> notices.loopWarned(warned);
            case TurnEnded ended -> {
                // A turn.ended before our message started a turn belongs to an earlier turn.
                if (turnStarted) {
                    approvals.turnEnded();
                    return end.ended(ended);
                }
            }
            case InputRejected rejected -> {
                if (isOurs(rejected)) {
                    printer.error("the session rejected the message: " + rejected.reason());
                    return ExitCodes.ERROR;
                }
                printer.warn("an input (" + rejected.inputType() + ") was rejected: " + rejected.reason());
            }
            case PermissionModeChanged changed -> notices.permissionMode(changed);
            case ApprovalRequested approval -> {
                return approvals.requested(envelope.sessionId(), approval);
            }
            case ApprovalDecided decided -> approvals.decided(decided);
            case PlanningEvent planning -> {
                if (planning instanceof PlanCreated created && created.awaitingApproval()) {
                    approvals.planProposed(created.callId(), created.steps());
                }
                notices.planning(planning);
            }
            case NotificationPosted notification -> notices.notification(notification);
            case SessionEvent.SystemPromptChanged set -> notices.systemPrompt(set);
            case SessionEvent.ModelSettingsChanged chosen -> notices.modelSettings(chosen);
            case SessionEvent.ContextFilesLoaded files -> notices.contextFiles(files);
            case SessionEvent.ContextCompactionRequested requested -> notices.compactionRequested(requested);
            case SessionEvent.ContextCompacted compacted -> notices.compacted(compacted);
            case SessionEvent.ContextCompactionFailed failed -> notices.compactionFailed(failed);
            case SessionEvent.McpToolsListed listed -> {
                // Shown in the session's state (mcpServers), not in the turn's output.
            }
            case UnknownEvent unknown -> {
                // written by a newer version; nothing this CLI knows how to show
            }
        }
        return null;
    }

    @Override
    public void onDelta(JsonNode delta) {
        text.delta(delta);
    }

    private boolean isOurs(InputRejected rejected) {
        if (inputId != null && inputId.equals(rejected.inputId())) {
            return true;
        }
        // Without ids to compare, a rejection before our message started a turn can only be about our message.
        return !turnStarted && (inputId == null || rejected.inputId() == null);
    }
}
