package dev.agentbus.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.Printer;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The model's words as they arrive: token and reasoning deltas printed live, and the durable model_call.completed
 * printed instead when its deltas never came.
 *
 * <p>Deltas are ephemeral and may be missing (the stream opened late, the model server does not stream) or arrive
 * after the event that completes them (they travel on a different topic). So the durable event is the truth and
 * deltas are a preview: a model call whose content was not streamed is printed from model_call.completed, late
 * deltas for a completed call are dropped. Early ones are held: a delta of a call whose model_call.started has not
 * been shown yet waits for it, so the events before the call (an approval decided, a tool's result) are printed
 * before its words and never in the middle of them. Every other line of the turn first ends a streamed line here
 * ({@link #endStreaming()}), so a tool call never starts in the middle of a sentence.
 */
final class StreamedText {
    private static final String REASONING_MARK = "┊ ";

    private enum Mode { NONE, TOKEN, REASONING }

    private final Printer printer;
    private final boolean quiet;
    private final boolean showReasoning;

    private final Set<String> streamedTokens = new HashSet<>();
    private final Set<String> streamedReasoning = new HashSet<>();
    private final Set<String> completedRequests = new HashSet<>();
    private final Set<String> startedRequests = new HashSet<>();
    /** Deltas that came before their call's model_call.started, in order, by request id. */
    private final Map<String, List<JsonNode>> early = new LinkedHashMap<>();
    private final StringBuilder printedContent = new StringBuilder();
    private String lastContent;
    private Mode mode = Mode.NONE;
    private boolean reasoningAtLineStart;

    StreamedText(Printer printer, boolean quiet, boolean showReasoning) {
        this.printer = printer;
        this.quiet = quiet;
        this.showReasoning = showReasoning;
    }

    void delta(JsonNode delta) {
        String ref = Text.text(delta, "ref");
        String text = Text.text(delta, "text");
        if (quiet || text == null || text.isEmpty() || (ref != null && completedRequests.contains(ref))) {
            return;
        }
        if (ref != null && !startedRequests.contains(ref)) {
            early.computeIfAbsent(ref, r -> new ArrayList<>()).add(delta);
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

    /** The call is shown as started: its words may be printed now, the ones that came early first. */
    void modelCallStarted(String requestId) {
        startedRequests.add(requestId);
        List<JsonNode> waiting = early.remove(requestId);
        if (waiting != null) {
            waiting.forEach(this::delta);
        }
    }

    void modelCallCompleted(ModelCallCompleted completed) {
        String ref = completed.requestId();
        completedRequests.add(ref);
        // Never started here (the stream joined late): its content is printed whole below.
        early.remove(ref);
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

    /** Ends a line the model's words left open, before anything else is printed. */
    void endStreaming() {
        printer.newline();
        mode = Mode.NONE;
    }

    /** The content of the turn's last model call that said something, for --quiet's answer. */
    String lastContent() {
        return lastContent;
    }

    /** Whether the answer was already shown as the model's words (then the turn's end does not repeat it). */
    boolean alreadyPrinted(String answer) {
        return normalise(printedContent.toString()).contains(normalise(answer));
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

    private static String normalise(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
