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
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
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
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one turn's stream (session events plus live deltas) into terminal output, and decides the exit code when
 * the turn ends.
 *
 * <p>Deltas are ephemeral and may be missing (the stream opened late, the model server does not stream) or arrive
 * after the event that completes them (they travel on a different topic). So the durable event is the truth and
 * deltas are a preview: a model call whose content was not streamed is printed from model_call.completed, late
 * deltas for a completed call are dropped, and the final answer is printed unless it already appeared.
 */
public final class TurnRenderer implements SessionStream.Listener {
    private static final int ARGS_WIDTH = 200;
    private static final int OUTPUT_WIDTH = 160;
    private static final int OUTPUT_LINES = 5;
    private static final String REASONING_MARK = "┊ ";

    private enum Mode { NONE, TOKEN, REASONING }

    private final Printer printer;
    private final boolean quiet;
    private final boolean showReasoning;

    private String inputId;
    private boolean turnStarted;
    private final Map<String, String> toolNames = new HashMap<>();
    private final Set<String> streamedTokens = new HashSet<>();
    private final Set<String> streamedReasoning = new HashSet<>();
    private final Set<String> completedRequests = new HashSet<>();
    private final StringBuilder printedContent = new StringBuilder();
    private String lastContent;
    private TokenUsage usage = TokenUsage.ZERO;
    private Mode mode = Mode.NONE;
    private boolean reasoningAtLineStart;
    /** The plan_create calls of plans waiting for approval, with their steps. */
    private final Map<String, List<String>> proposedPlans = new HashMap<>();
    private PlanReviewer planReviewer;
    /** The calls of this turn that wait for a person: requested, not decided yet, in the order asked. */
    private final Set<String> pendingApprovals = new LinkedHashSet<>();
    /** chat's way of deciding an approval (its slash commands) instead of the approve and deny commands. */
    private boolean chatHints;

    public TurnRenderer(Printer printer, boolean quiet, boolean showReasoning) {
        this.printer = printer;
        this.quiet = quiet;
        this.showReasoning = showReasoning;
    }

    /** Who decides a plan that waits for approval; without one the renderer only says how to decide it. */
    public void reviewPlansWith(PlanReviewer reviewer) {
        this.planReviewer = reviewer;
    }

    /**
     * Renders a turn that is under way already (chat follows it again after a decision): its end is ours,
     * {@code pending} are the calls already waiting for approval, and {@code tools} names the tools of calls
     * requested before (call id to tool), so their decisions and results say which tool they were.
     */
    public void continueTurn(Collection<String> pending, Map<String, String> tools) {
        turnStarted = true;
        pendingApprovals.addAll(pending);
        toolNames.putAll(tools);
    }

    /** Tells a person how to decide an approval with chat's {@code /approve} and {@code /deny}. */
    public void useChatHints() {
        chatHints = true;
    }

    /** The calls that wait for a person's decision as far as the events shown so far say, oldest first. */
    public List<String> pendingApprovals() {
        return List.copyOf(pendingApprovals);
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
            case SessionForked forked -> {
                if (!quiet) {
                    printer.println(printer.dim("forked from " + forked.fromSessionId() + " at seq " + forked.atSeq()));
                }
            }
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
            case ModelCallStarted started -> {
                // tokens (or the completed call) will show what it did
            }
            case ModelCallCompleted completed -> modelCallCompleted(completed);
            case ModelCallFailed failed -> {
                if (!quiet) {
                    endStreaming();
                    printer.println(printer.red("✗ model call failed: ") + Text.oneLine(failed.message(), 300));
                }
            }
            case ToolCallRequested requested -> {
                toolNames.put(requested.callId(), requested.name());
                if (!quiet) {
                    endStreaming();
                    String args = Text.compactJson(requested.arguments(), ARGS_WIDTH);
                    printer.println(printer.cyan("→ " + requested.name()) + (args.isEmpty() ? "" : " " + args));
                }
            }
            case ToolCallStarted started -> {
                // the request line already says it is coming
            }
            case SessionEvent.SubAgentStarted started -> {
                toolNames.put(started.callId(), "task");
                if (!quiet) {
                    endStreaming();
                    printer.println(printer.cyan("→ task") + " " + Text.oneLine(started.description(), ARGS_WIDTH)
                            + printer.dim("  (sub-agent " + started.childSessionId() + ")"));
                }
            }
            case SessionEvent.SubAgentFinished finished -> {
                // the task call's result follows at once and shows the answer
            }
            case ToolCallCompleted completed -> {
                if (!quiet) {
                    endStreaming();
                    toolResult(completed);
                }
            }
            case WaitScheduled wait -> {
                if (!quiet) {
                    endStreaming();
                    printer.println(printer.yellow("⏸ waiting until " + Text.localTime(wait.until()))
                            + (Text.isBlank(wait.reason()) ? "" : " : " + wait.reason()));
                }
            }
            case WaitEnded ended -> {
                if (!quiet) {
                    printer.println(printer.dim(ended.interrupted() ? "▶ resumed early by a message" : "▶ resumed"));
                }
            }
            case SessionRenamed renamed -> {
                if (!quiet) {
                    printer.println(printer.dim("renamed: " + renamed.title()
                            + (renamed.renamedBy() == null ? "" : " (by " + renamed.renamedBy() + ")")));
                }
            }
            case SessionDeleted deleted -> printer.println(printer.red("✗ the session was deleted"
                    + (deleted.deletedBy() == null ? "" : " (by " + deleted.deletedBy() + ")")));
            case WhisperQueued whisper -> {
                if (!quiet) {
                    printer.println(printer.dim("↳ whisper queued: " + Text.oneLine(whisper.text(), ARGS_WIDTH)));
                }
            }
            case WhisperDelivered delivered -> {
                if (!quiet) {
                    printer.println(printer.dim("↳ whisper delivered to the model"));
                }
            }
            case dev.agentbus.events.session.SessionEvent.ModelCallRefused refused -> {
                if (!quiet) {
                    endStreaming();
                    printer.println(printer.red("✗ model call refused: ") + Text.oneLine(refused.reason(), 300));
                }
            }
            case dev.agentbus.events.session.SessionEvent.ModelWarned warned -> {
                // Shown even when quiet, like the loop guard's: it may explain a rambling answer.
                endStreaming();
                printer.warn(warned.reason());
            }
            case LoopWarned warned -> {
                // Shown even when quiet: the next time the turn ends.
                endStreaming();
                printer.warn("loop guard (" + warned.guard().name().toLowerCase(java.util.Locale.ROOT) + "): "
                        + warned.reason());
            }
            case TurnEnded ended -> {
                // A turn.ended before our message started a turn belongs to an earlier turn.
                if (turnStarted) {
                    pendingApprovals.clear();
                    return turnEnded(ended);
                }
            }
            case InputRejected rejected -> {
                if (isOurs(rejected)) {
                    printer.error("the session rejected the message: " + rejected.reason());
                    return ExitCodes.ERROR;
                }
                printer.warn("an input (" + rejected.inputType() + ") was rejected: " + rejected.reason());
            }
            case PermissionModeChanged changed -> {
                if (!quiet) {
                    printer.println(printer.dim("permission mode: " + changed.mode().wireName()
                            + (changed.changedBy() == null ? "" : " (set by " + changed.changedBy() + ")")));
                }
            }
            case ApprovalRequested approval when proposedPlans.containsKey(approval.callId()) -> {
                toolNames.put(approval.callId(), "the plan");
                endStreaming();
                printer.println(printer.yellow("⏸ the plan waits for approval") + printer.dim(chatHints
                        ? " — /plan approve, or /plan reject [NOTE]"
                        : " — agentbus approve " + envelope.sessionId() + " " + approval.callId()
                                + "  (or deny, with --note)"));
                if (planReviewer != null) {
                    return planReviewer.review(envelope.sessionId(), approval.callId(),
                            proposedPlans.get(approval.callId()));
                }
                // No one reviews it here: like any call that waits for a person, it pauses a turn chat streams, so
                // the prompt comes back for /plan approve (before, chat kept streaming a turn nobody could decide).
                pendingApprovals.add(approval.callId());
            }
            case ApprovalRequested approval -> {
                toolNames.put(approval.callId(), approval.tool());
                pendingApprovals.add(approval.callId());
                // Shown even when quiet: the turn cannot go on until someone decides.
                endStreaming();
                String args = Text.compactJson(approval.arguments(), ARGS_WIDTH);
                String hint = chatHints
                        ? " — /approve, /approve always or /deny [NOTE]  (call " + approval.callId() + "; "
                                + approval.reason() + ")"
                        : " — agentbus approve " + envelope.sessionId() + " " + approval.callId() + "  (or deny; "
                                + approval.reason() + ")";
                printer.println(printer.yellow("⏸ approval needed: " + approval.tool())
                        + (args.isEmpty() ? "" : " " + args) + printer.dim(hint));
            }
            case ApprovalDecided decided -> {
                pendingApprovals.remove(decided.callId());
                if (!quiet) {
                    String tool = toolNames.getOrDefault(decided.callId(), decided.callId());
                    String line = switch (decided.decision()) {
                        case APPROVED -> printer.green("✓ approved: " + tool);
                        case ALWAYS -> printer.green("✓ approved: " + tool + " (always, for this session)");
                        case DENIED -> printer.red("✗ denied: " + tool);
                        case EXPIRED -> printer.red("✗ approval expired: " + tool);
                    };
                    printer.println(line + printer.dim((decided.decidedBy() == null ? "" : " by " + decided.decidedBy())
                            + (Text.isBlank(decided.note()) ? "" : " : " + decided.note())));
                }
            }
            case PlanningEvent planning -> planning(planning);
            case NotificationPosted notification -> {
                if (!quiet) {
                    printer.println(printer.dim("✉ notification: " + notification.message()));
                }
            }
            case SessionEvent.SystemPromptChanged set -> {
                if (!quiet) {
                    printer.println(printer.dim("system prompt: " + (set.preset() == null ? "" : "preset " + set.preset()
                            + (set.systemPrompt() == null ? "" : " + ")) + (set.systemPrompt() == null
                            ? (set.preset() == null ? "the installation's" : "") : "the session's own")));
                }
            }
            case SessionEvent.ModelSettingsChanged chosen -> {
                if (!quiet) {
                    printer.println(printer.dim("model: " + ModelText.chosen(chosen.model(), chosen.sampling())));
                }
            }
            case SessionEvent.ContextFilesLoaded files -> {
                if (!quiet) {
                    printer.println(printer.dim("context files: " + (files.files().isEmpty() ? "none"
                            : String.join(", ", files.files().stream().map(f -> f.name()).toList()))));
                }
            }
            case SessionEvent.ContextCompactionRequested requested -> {
                if (!quiet) {
                    printer.println(printer.dim("⇊ compacting the conversation: " + requested.reason()));
                }
            }
            case SessionEvent.ContextCompacted compacted -> {
                if (!quiet) {
                    printer.println(printer.dim("⇊ compacted: " + compacted.messagesCovered()
                            + " messages summarised"));
                }
            }
            case SessionEvent.ContextCompactionFailed failed -> printer.warn("compaction failed: " + failed.message());
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
        String ref = Text.text(delta, "ref");
        String text = Text.text(delta, "text");
        if (quiet || text == null || text.isEmpty() || (ref != null && completedRequests.contains(ref))) {
            return;
        }
        switch (String.valueOf(Text.text(delta, "kind"))) {
            case "TOKEN" -> {
                if (mode == Mode.REASONING) {
                    printer.newline();
                }
                mode = Mode.TOKEN;
                streamedTokens.add(ref);
                printedContent.append(text);
                printer.print(text);
            }
            case "REASONING" -> {
                if (showReasoning) {
                    streamedReasoning.add(ref);
                    reasoning(text);
                }
            }
            default -> {
                // OUTPUT (live command output) is summarised by tool_call.completed instead; printing both would
                // show every line twice.
            }
        }
    }

    /** Shown even when quiet while a plan waits for approval: the person has to read it to decide. */
    private void planning(PlanningEvent event) {
        boolean awaiting = event instanceof PlanCreated c && c.awaitingApproval();
        if (awaiting) {
            proposedPlans.put(((PlanCreated) event).callId(), ((PlanCreated) event).steps());
        }
        if (quiet && !awaiting) {
            return;
        }
        endStreaming();
        List<String> lines = PlanningLines.of(event);
        printer.println(printer.cyan(lines.getFirst()));
        lines.stream().skip(1).forEach(printer::println);
    }

    private void modelCallCompleted(ModelCallCompleted completed) {
        String ref = completed.requestId();
        completedRequests.add(ref);
        if (turnStarted) {
            usage = usage.plus(completed.usage());
        }
        if (!Text.isBlank(completed.content())) {
            lastContent = completed.content();
        }
        if (quiet) {
            return;
        }
        if (showReasoning && !Text.isBlank(completed.reasoning()) && !streamedReasoning.contains(ref)) {
            endStreaming();
            reasoning(completed.reasoning().strip());
        }
        // The non-streaming fallback: the model server sent the whole response at once, or the deltas were lost.
        if (!Text.isBlank(completed.content()) && !streamedTokens.contains(ref)) {
            endStreaming();
            printer.print(completed.content().strip());
            printedContent.append(completed.content());
        }
        endStreaming();
    }

    private void reasoning(String text) {
        if (mode != Mode.REASONING) {
            printer.newline();
            mode = Mode.REASONING;
            reasoningAtLineStart = true;
        }
        String[] parts = text.split("\n", -1);
        for (int i = 0; i < parts.length; i++) {
            if (!parts[i].isEmpty()) {
                if (reasoningAtLineStart) {
                    printer.print(printer.dim(REASONING_MARK));
                    reasoningAtLineStart = false;
                }
                printer.print(printer.dim(parts[i]));
            }
            if (i < parts.length - 1) {
                printer.print("\n");
                reasoningAtLineStart = true;
            }
        }
    }

    private void endStreaming() {
        printer.newline();
        mode = Mode.NONE;
    }

    private void toolResult(ToolCallCompleted c) {
        if (c.interrupted()) {
            printer.println(printer.red("  ✗ interrupted")
                    + printer.dim(": the worker stopped during the call and did not run it again"));
            return;
        }
        List<String> lines = Text.lines(c.output());
        if (c.ok()) {
            if (lines.isEmpty()) {
                printer.println(printer.green("  ✓ ") + printer.dim("done, no output"));
            } else {
                printer.println(printer.green("  ✓ ") + Text.cut(lines.get(0), OUTPUT_WIDTH));
                moreLines(lines, 1, OUTPUT_LINES);
            }
        } else {
            printer.println(printer.red("  ✗ " + (Text.isBlank(c.error()) ? "failed" : Text.oneLine(c.error(), 300))));
            moreLines(lines, 0, 3);
        }
        if (c.truncated()) {
            printer.println(printer.dim("    (output truncated)"));
        }
    }

    private void moreLines(List<String> lines, int from, int max) {
        int shown = Math.min(lines.size(), max);
        for (int i = from; i < shown; i++) {
            printer.println("    " + printer.dim(Text.cut(lines.get(i), OUTPUT_WIDTH)));
        }
        if (lines.size() > shown) {
            printer.println(printer.dim("    … " + (lines.size() - shown) + " more line"
                    + (lines.size() - shown == 1 ? "" : "s")));
        }
    }

    private Integer turnEnded(TurnEnded ended) {
        endStreaming();
        String answer = ended.answer();
        if (quiet) {
            // --quiet is for scripts: stdout gets the answer and nothing else.
            String text = !Text.isBlank(answer) ? answer : lastContent;
            if (!Text.isBlank(text)) {
                printer.println(text.strip());
            }
        } else if (!Text.isBlank(answer) && !alreadyPrinted(answer)) {
            printer.println(answer.strip());
        }
        String message = Text.isBlank(ended.message()) ? "" : ": " + ended.message();
        if (ended.outcome() == null) {
            printer.error("the turn ended without saying how" + message);
            return ExitCodes.ERROR;
        }
        switch (ended.outcome()) {
            case COMPLETED -> {
            }
            case CANCELLED -> {
                if (!quiet) {
                    printer.println(printer.yellow("⊘ cancelled") + message);
                }
            }
            case ITERATION_CAP -> printer.warn("the turn stopped at the iteration cap" + message);
            case LOOP_DETECTED -> printer.warn("the loop guard stopped the turn" + message);
            case ERROR -> printer.error("the turn failed" + message);
        }
        if (!quiet) {
            printer.println(printer.dim("tokens: " + usage.promptTokens() + " prompt · " + usage.completionTokens()
                    + " completion · " + usage.totalTokens() + " total"));
        }
        return ExitCodes.forOutcome(ended.outcome());
    }

    private boolean alreadyPrinted(String answer) {
        return normalise(printedContent.toString()).contains(normalise(answer));
    }

    private static String normalise(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private boolean isOurs(InputRejected rejected) {
        if (inputId != null && inputId.equals(rejected.inputId())) {
            return true;
        }
        // Without ids to compare, a rejection before our message started a turn can only be about our message.
        return !turnStarted && (inputId == null || rejected.inputId() == null);
    }
}
