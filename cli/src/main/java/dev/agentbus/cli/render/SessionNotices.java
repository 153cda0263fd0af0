package dev.agentbus.cli.render;

import dev.agentbus.cli.Printer;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.LoopWarned;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.PermissionModeChanged;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.SessionRenamed;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.SessionEvent.WhisperDelivered;
import dev.agentbus.events.session.SessionEvent.WhisperQueued;

import java.util.List;
import java.util.Locale;

/**
 * One line for each thing that happened to the session beside the model's words and tool calls: a rename, a
 * whisper, a wait, a changed mode, model or context, a compaction, a plan or todo change, a failed or refused model
 * call, a warning. Most are hidden with --quiet; warnings, a deletion and a plan that waits for approval are not,
 * because they explain why a turn stopped or what a person has to do.
 */
final class SessionNotices {
    private final Printer printer;
    private final boolean quiet;
    private final StreamedText text;

    SessionNotices(Printer printer, boolean quiet, StreamedText text) {
        this.printer = printer;
        this.quiet = quiet;
        this.text = text;
    }

    void forked(SessionForked forked) {
        dim("forked from " + forked.fromSessionId() + " at seq " + forked.atSeq());
    }

    void renamed(SessionRenamed renamed) {
        dim("renamed: " + renamed.title() + (renamed.renamedBy() == null ? "" : " (by " + renamed.renamedBy() + ")"));
    }

    void deleted(SessionDeleted deleted) {
        printer.println(printer.red("✗ the session was deleted"
                + (deleted.deletedBy() == null ? "" : " (by " + deleted.deletedBy() + ")")));
    }

    void modelCallFailed(ModelCallFailed failed) {
        if (!quiet) {
            text.endStreaming();
            printer.println(printer.red("✗ model call failed: ") + Text.oneLine(failed.message(), 300));
        }
    }

    void modelCallRefused(SessionEvent.ModelCallRefused refused) {
        if (!quiet) {
            text.endStreaming();
            printer.println(printer.red("✗ model call refused: ") + Text.oneLine(refused.reason(), 300));
        }
    }

    void modelWarned(SessionEvent.ModelWarned warned) {
        // Shown even when quiet, like the loop guard's: it may explain a rambling answer.
        text.endStreaming();
        printer.warn(warned.reason());
    }

    void loopWarned(LoopWarned warned) {
        // Shown even when quiet: the next time the turn ends.
        text.endStreaming();
        printer.warn("loop guard (" + warned.guard().name().toLowerCase(Locale.ROOT) + "): " + warned.reason());
    }

    void waitScheduled(WaitScheduled wait) {
        if (!quiet) {
            text.endStreaming();
            printer.println(printer.yellow("⏸ waiting until " + Text.localTime(wait.until()))
                    + (Text.isBlank(wait.reason()) ? "" : " : " + wait.reason()));
        }
    }

    void waitEnded(WaitEnded ended) {
        dim(ended.interrupted() ? "▶ resumed early by a message" : "▶ resumed");
    }

    void whisperQueued(WhisperQueued whisper) {
        dim("↳ whisper queued: " + Text.oneLine(whisper.text(), ToolLines.ARGS_WIDTH));
    }

    void whisperDelivered(WhisperDelivered delivered) {
        dim("↳ whisper delivered to the model");
    }

    void permissionMode(PermissionModeChanged changed) {
        dim("permission mode: " + changed.mode().wireName()
                + (changed.changedBy() == null ? "" : " (set by " + changed.changedBy() + ")"));
    }

    void notification(NotificationPosted notification) {
        dim("✉ notification: " + notification.message());
    }

    void systemPrompt(SessionEvent.SystemPromptChanged set) {
        dim("system prompt: " + (set.preset() == null ? "" : "preset " + set.preset()
                + (set.systemPrompt() == null ? "" : " + ")) + (set.systemPrompt() == null
                ? (set.preset() == null ? "the installation's" : "") : "the session's own"));
    }

    void modelSettings(SessionEvent.ModelSettingsChanged chosen) {
        dim("model: " + ModelText.chosen(chosen.model(), chosen.sampling()));
    }

    void contextFiles(SessionEvent.ContextFilesLoaded files) {
        dim("context files: " + (files.files().isEmpty() ? "none"
                : String.join(", ", files.files().stream().map(f -> f.name()).toList())));
    }

    void compactionRequested(SessionEvent.ContextCompactionRequested requested) {
        dim("⇊ compacting the conversation: " + requested.reason());
    }

    void compacted(SessionEvent.ContextCompacted compacted) {
        dim("⇊ compacted: " + compacted.messagesCovered() + " messages summarised");
    }

    void compactionFailed(SessionEvent.ContextCompactionFailed failed) {
        printer.warn("compaction failed: " + failed.message());
    }

    /** Shown even when quiet while a plan waits for approval: the person has to read it to decide. */
    void planning(PlanningEvent event) {
        boolean awaiting = event instanceof PlanCreated c && c.awaitingApproval();
        if (quiet && !awaiting) {
            return;
        }
        text.endStreaming();
        List<String> lines = PlanningLines.of(event);
        printer.println(printer.cyan(lines.getFirst()));
        lines.stream().skip(1).forEach(printer::println);
    }

    /** A dim line, not shown with --quiet. */
    private void dim(String line) {
        if (!quiet) {
            printer.println(printer.dim(line));
        }
    }
}
