package dev.agentbus.cli.replay;

import dev.agentbus.cli.Printer;
import dev.agentbus.cli.render.ModelText;
import dev.agentbus.cli.render.Text;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.cli.render.PlanningLines;
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
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;

import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * One event of a replay as people read it: its seq, its local time, the time since the event before it, and what it
 * says: the message, the reasoning, the model's answer with its token usage, each tool call with its arguments and
 * result, waits, the end of a turn. Pure rendering of recorded events: nothing is called, nothing is run.
 */
public final class Timeline {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final int OUTPUT_LINES = 10;
    private static final int WIDTH = 160;
    /** Where the details of an entry start, below its first line. */
    private static final String INDENT = " ".repeat(30);

    private final Printer p;
    private final ZoneId zone;

    public Timeline(Printer printer, ZoneId zone) {
        this.p = printer;
        this.zone = zone;
    }

    /** The column heads, and the day of the first event (the entries show only the time of day). */
    public void header(EventEnvelope first) {
        String day = first.time() == null ? "" : "  (" + DAY.format(first.time().atZone(zone)) + ", " + zone + ")";
        p.println(p.bold("Session " + first.sessionId()) + p.dim(day));
        p.println(p.dim(String.format("%5s  %-12s  %8s  %s", "SEQ", "TIME", "+DELTA", "EVENT")));
    }

    /**
     * Prints one event.
     *
     * @param previous the event before it, or null for the first; the delta is measured from it
     * @param before   the folded state before this event (tool calls are named from it)
     */
    public void entry(EventEnvelope e, EventEnvelope previous, SessionState before) {
        String time = e.time() == null ? "-" : CLOCK.format(e.time().atZone(zone));
        String delta = previous == null || previous.time() == null || e.time() == null ? ""
                : "+" + delta(Duration.between(previous.time(), e.time()));
        String head = String.format("%5d  %-12s  %8s  ", e.seq(), time, delta);
        describe(e, before, head);
    }

    private void describe(EventEnvelope e, SessionState before, String head) {
        switch (e.event()) {
            case SessionCreated c -> line(head, p.bold("session created") + " " + quoted(c.title())
                    + p.dim(e.userId() == null ? "" : " for " + e.userId())
                    + p.dim(c.mode() == null ? "" : " · " + c.mode().wireName() + " mode")
                    + p.dim(c.subAgentOf() == null ? "" : " · sub-agent of " + c.subAgentOf().parentSessionId()
                            + " (call " + c.subAgentOf().callId() + ")"));
            case SessionForked f -> {
                line(head, p.bold("⑂ forked") + " from " + f.fromSessionId() + " at seq " + f.atSeq() + " "
                        + quoted(f.title()));
                detail(p.dim("checkpoint " + (f.checkpoint() == null ? "none (the workspace starts empty)"
                        : f.checkpoint())));
                if (f.state() != null) {
                    detail(p.dim("carries " + f.state().messages().size() + " messages, "
                            + f.state().toolCalls().size() + " tool calls, "
                            + f.state().usage().totalTokens() + " tokens"));
                }
            }
            case UserMessagePosted m -> block(head, p.green("you ▸ "), m.imagePaths().isEmpty() ? m.text()
                    : m.text() + "\n[images: " + String.join(", ", m.imagePaths()) + "]");
            case dev.agentbus.events.session.SessionEvent.ModelCallRefused f -> line(head,
                    p.red("✗ model call refused: ") + Text.oneLine(f.reason(), WIDTH));
            case dev.agentbus.events.session.SessionEvent.ModelWarned w -> line(head,
                    p.yellow("⚠ ") + p.dim(Text.oneLine(w.reason(), WIDTH)));
            case MemoryAttached m -> line(head, p.dim("memory v" + m.version() + " attached ("
                    + Text.lines(m.content()).size() + " lines)"));
            case SessionEvent.InsightsInjected i -> line(head, p.dim(i.insights().size() + " insights in the prompt"));
            case SessionEvent.FeedbackGiven f -> line(head, p.dim("thumbs " + f.vote().wireName() + " on #" + f.seq()
                    + (f.givenBy() == null ? "" : " by " + f.givenBy())));
            case SessionEvent.MemoryManaged m -> line(head, p.dim("memory " + m.action().wireName() + " "
                    + m.insightId() + (m.text() == null ? "" : ": " + m.text())));
            case ModelCallStarted m -> line(head, p.dim("model call " + m.iteration() + " started"
                    + (m.asked() == null ? "" : ": " + ModelText.asked(m.asked()))));
            case ModelCallCompleted m -> modelAnswer(head, m, before);
            case ModelCallFailed f -> line(head, p.red("✗ model call failed: ") + Text.oneLine(f.message(), WIDTH));
            case ToolCallRequested r -> line(head, p.cyan("→ " + r.name()) + " "
                    + p.dim(Text.compactJson(r.arguments(), 500)) + (r.byUser() ? p.yellow("  (run by a person)") : ""));
            case ToolCallStarted s -> line(head, p.dim(name(before, s.callId()) + " started on " + s.worker()));
            case ToolCallCompleted c -> toolResult(head, c, before);
            case WaitScheduled w -> line(head, p.yellow("⏸ waiting until " + w.until())
                    + (Text.isBlank(w.reason()) ? "" : " : " + w.reason()));
            case WaitEnded w -> line(head, p.yellow(w.interrupted() ? "▶ wait ended early by a message" : "▶ wait ended"));
            case SessionRenamed r -> line(head, p.bold("renamed") + " " + Text.oneLine(r.title(), WIDTH)
                    + p.dim(r.renamedBy() == null ? "" : " by " + r.renamedBy()));
            case SessionDeleted d -> line(head, p.red("deleted") + p.dim(d.deletedBy() == null ? "" : " by "
                    + d.deletedBy()));
            case WhisperQueued w -> line(head, p.cyan("↳ whisper") + " " + Text.oneLine(w.text(), WIDTH)
                    + p.dim(w.sentBy() == null ? "" : " from " + w.sentBy()));
            case WhisperDelivered w -> line(head, p.dim("↳ whisper delivered to the next model call"));
            case LoopWarned w -> line(head, p.yellow("⚠ loop guard " + w.guard().name().toLowerCase(Locale.ROOT))
                    + " " + p.dim(Text.oneLine(w.reason(), WIDTH)));
            case TurnEnded t -> {
                String mark = switch (t.outcome()) {
                    case COMPLETED -> p.green("■ turn ended COMPLETED");
                    case CANCELLED -> p.yellow("⊘ turn ended CANCELLED");
                    case ITERATION_CAP, ERROR, LOOP_DETECTED -> p.red("■ turn ended " + t.outcome());
                };
                line(head, mark + (Text.isBlank(t.message()) ? "" : ": " + Text.oneLine(t.message(), WIDTH)));
            }
            case InputRejected r -> line(head, p.red("✗ input rejected") + " " + r.inputType() + ": " + r.reason());
            case NotificationPosted n -> line(head, p.dim("✉ notification: " + Text.oneLine(n.message(), WIDTH)));
            case PlanningEvent planning -> {
                List<String> lines = PlanningLines.of(planning);
                line(head, p.cyan(lines.getFirst()));
                lines.stream().skip(1).forEach(l -> detail(p.dim(l)));
            }
            case PermissionModeChanged m -> line(head, p.bold("permission mode " + m.mode().wireName())
                    + p.dim(m.changedBy() == null ? "" : " set by " + m.changedBy()));
            case ApprovalRequested a -> {
                line(head, p.yellow("⏸ approval needed: " + a.tool()) + " "
                        + p.dim(Text.compactJson(a.arguments(), 500)));
                detail(p.dim(a.risk().name().toLowerCase(Locale.ROOT) + " risk · " + a.reason() + " · expires "
                        + a.expiresAt()));
            }
            case ApprovalDecided d -> {
                String what = switch (d.decision()) {
                    case APPROVED -> p.green("✓ approved");
                    case ALWAYS -> p.green("✓ approved always");
                    case DENIED -> p.red("✗ denied");
                    case EXPIRED -> p.red("✗ approval expired");
                };
                line(head, what + " " + name(before, d.callId())
                        + p.dim((d.decidedBy() == null ? "" : " by " + d.decidedBy())
                        + (Text.isBlank(d.note()) ? "" : " : " + Text.oneLine(d.note(), WIDTH))));
            }
            case SessionEvent.SystemPromptChanged s -> line(head, p.bold("system prompt")
                    + (s.preset() == null ? "" : " preset " + s.preset())
                    + (s.systemPrompt() == null ? (s.preset() == null ? " back to the installation's" : "")
                    : " " + quoted(Text.oneLine(s.systemPrompt(), WIDTH)))
                    + p.dim(s.setBy() == null ? "" : " set by " + s.setBy()));
            case SessionEvent.SubAgentStarted a -> line(head, p.cyan("⇢ sub-agent started") + " "
                    + Text.oneLine(a.description(), WIDTH) + p.dim(" · " + a.childSessionId() + " · tools "
                    + String.join(", ", a.tools()) + " · at most " + a.maxIterations() + " model calls"));
            case SessionEvent.SubAgentFinished f -> line(head, p.cyan("⇠ sub-agent finished") + " "
                    + f.outcome() + p.dim(" · " + f.childSessionId()));
            case SessionEvent.ModelSettingsChanged m -> line(head, p.bold("model") + " "
                    + ModelText.chosen(m.model(), m.sampling()) + p.dim(m.changedBy() == null ? "" : " chosen by "
                    + m.changedBy()));
            case SessionEvent.ContextFilesLoaded f -> line(head, p.dim("context files: " + (f.files().isEmpty()
                    ? "none" : String.join(", ", f.files().stream().map(x -> x.name() + " ("
                    + x.content().length() + " chars" + (x.truncated() ? ", cut" : "") + ")").toList()))));
            case SessionEvent.ContextCompactionRequested r -> line(head, p.cyan("⇊ compaction asked for") + " "
                    + p.dim("messages 1–" + r.messagesCovered() + " (through seq " + r.throughSeq() + "): "
                    + Text.oneLine(r.reason(), WIDTH)));
            case SessionEvent.ContextCompacted c -> block(head, p.cyan("⇊ compacted ▸ "), c.summary());
            case SessionEvent.ContextCompactionFailed f -> line(head, p.red("✗ compaction failed: ")
                    + Text.oneLine(f.message(), WIDTH));
            case SessionEvent.McpToolsListed l -> line(head, p.dim("MCP servers: " + Text.oneLine(l.servers().stream()
                    .map(s -> s.name() + (s.live() ? " (" + s.tools().size() + " tools)" : " (not live: " + s.error()
                            + ")")).collect(java.util.stream.Collectors.joining(", ")), WIDTH)));
            case UnknownEvent u -> line(head, p.yellow("? " + u.type()) + p.dim(" (a type this CLI does not know) ")
                    + p.dim(Text.oneLine(String.valueOf(u.raw()), 200)));
        }
    }

    private void modelAnswer(String head, ModelCallCompleted m, SessionState before) {
        long total = before.usage().totalTokens() + m.usage().totalTokens();
        line(head, p.cyan("model answered") + p.dim(" " + m.model() + " · " + m.usage().promptTokens() + " prompt + "
                + m.usage().completionTokens() + " completion tokens · session total " + total
                + (Text.isBlank(m.finishReason()) ? "" : " · " + m.finishReason())));
        if (!Text.isBlank(m.reasoning())) {
            for (String l : Text.lines(m.reasoning().strip())) {
                detail(p.dim("┊ " + l));
            }
        }
        if (!Text.isBlank(m.content())) {
            List<String> lines = Text.lines(m.content().strip());
            detail(p.cyan("assistant ▸ ") + lines.getFirst());
            lines.stream().skip(1).forEach(l -> detail("    " + l));
        }
        for (ToolCallSpec call : m.toolCalls()) {
            detail(p.cyan("asks for " + call.name()) + " " + p.dim(Text.compactJson(call.arguments(), 500)));
        }
    }

    private void toolResult(String head, ToolCallCompleted c, SessionState before) {
        String name = name(before, c.callId());
        String mark = c.interrupted() ? p.red("✗ " + name + " interrupted")
                : c.ok() ? p.green("✓ " + name + " ok") : p.red("✗ " + name + " failed");
        line(head, mark + p.dim("  " + c.durationMs() + " ms"
                + (c.checkpoint() == null ? "" : " · checkpoint " + c.checkpoint())
                + (c.truncated() ? " · output truncated" : "")));
        if (!Text.isBlank(c.refusal())) {
            detail(p.red("refused: " + Text.oneLine(c.refusal(), WIDTH)));
        } else if (!Text.isBlank(c.error())) {
            detail(p.red(Text.oneLine(c.error(), WIDTH)));
        }
        List<String> lines = Text.lines(c.output());
        int shown = Math.min(lines.size(), OUTPUT_LINES);
        for (int i = 0; i < shown; i++) {
            detail(Text.cut(lines.get(i), WIDTH));
        }
        if (lines.size() > shown) {
            detail(p.dim("… " + (lines.size() - shown) + " more lines"));
        }
        if (c.shell() != null && c.shell().cwd() != null) {
            detail(p.dim("shell now in " + c.shell().cwd()));
        }
    }

    private static String name(SessionState before, String callId) {
        ToolCallView view = before.toolCalls().get(callId);
        return view == null ? "call " + callId : view.name();
    }

    private void block(String head, String label, String text) {
        List<String> lines = Text.lines(text == null ? "" : text.strip());
        line(head, label + (lines.isEmpty() ? "" : lines.getFirst()));
        lines.stream().skip(1).forEach(l -> detail("    " + l));
    }

    private void line(String head, String text) {
        p.println(p.dim(head) + text);
    }

    private void detail(String text) {
        p.println(INDENT + text);
    }

    private static String quoted(String s) {
        return "\"" + (s == null ? "" : s) + "\"";
    }

    /** 850ms, 2.31s, 3m04s, 2h03m, 4d05h: short, and exact enough to see where the time went. */
    static String delta(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.2fs", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        return String.format("%dd%02dh", s / 86_400, (s % 86_400) / 3600);
    }
}
