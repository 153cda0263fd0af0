package dev.agentbus.gateway.sharing;

import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.state.ToolCallView;
import dev.agentbus.events.session.ToolCallSpec;

/**
 * A session's conversation as a Markdown document: the title, then each message in order; the agent's tool calls
 * with their arguments, result, diff and duration; reasoning folded into a {@code <details>} block. Made from the
 * folded state alone, so an export and a share link show exactly what the log holds. Used by the Markdown export and
 * by read-only share links.
 *
 * <p>Code fences are made longer than any run of backticks in what they hold, so a tool's output can never close
 * its fence early and turn into Markdown (or HTML) of its own.
 */
final class MarkdownTranscript {
    private MarkdownTranscript() {
    }

    static String of(SessionState session) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(oneLine(session.title())).append("\n\n");
        md.append("_Session ").append(session.sessionId()).append(", ").append(session.userId())
                .append(", last change ").append(session.updatedAt()).append("_\n");
        for (Message message : session.messages()) {
            md.append('\n');
            switch (message) {
                case Message.User u -> md.append("## You\n\n").append(u.text()).append('\n');
                case Message.Assistant a -> assistant(md, a, session);
                case Message.Tool t -> {
                    // Shown with the call that asked for it; a call a person ran has no assistant message.
                    ToolCallView call = session.toolCalls().get(t.callId());
                    if (call != null && call.byUser()) {
                        md.append("## You ran `").append(t.name()).append("`\n\n");
                        toolCall(md, call);
                    }
                }
                case Message.Notice n -> md.append("> ").append(oneLine(n.text())).append('\n');
            }
        }
        return md.toString();
    }

    private static void assistant(StringBuilder md, Message.Assistant a, SessionState session) {
        md.append("## Agent\n\n");
        if (a.reasoning() != null && !a.reasoning().isBlank()) {
            md.append("<details><summary>Reasoning</summary>\n\n").append(fenced(a.reasoning(), ""))
                    .append("\n</details>\n\n");
        }
        if (a.content() != null && !a.content().isBlank()) {
            md.append(a.content()).append("\n\n");
        }
        for (ToolCallSpec spec : a.toolCalls()) {
            md.append("**Tool `").append(spec.name()).append("`**\n\n");
            ToolCallView call = session.toolCalls().get(spec.id());
            if (call == null) {
                md.append(fenced(spec.arguments(), "json")).append('\n');
            } else {
                toolCall(md, call);
            }
        }
    }

    private static void toolCall(StringBuilder md, ToolCallView call) {
        md.append(fenced(call.arguments(), "json")).append('\n');
        if (call.status() != ToolCallView.Status.COMPLETED) {
            md.append("_not answered yet_\n\n");
            return;
        }
        String outcome = Boolean.TRUE.equals(call.ok()) ? "done" : call.refusal() != null ? "refused" : "failed";
        md.append('_').append(outcome).append(" in ").append(call.durationMs()).append(" ms_\n\n");
        String text = call.refusal() != null ? call.refusal() : call.error() != null ? call.error() : call.output();
        if (text != null && !text.isBlank()) {
            md.append(fenced(text, "")).append('\n');
        }
        if (call.diff() != null && !call.diff().isBlank()) {
            md.append(fenced(call.diff(), "diff")).append('\n');
        }
    }

    /** A fence of backticks longer than the longest run inside the text (at least three). */
    static String fenced(String text, String language) {
        int longest = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            run = text.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(Math.max(3, longest + 1));
        return fence + language + "\n" + text + (text.endsWith("\n") ? "" : "\n") + fence + "\n";
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s+", " ").strip();
    }
}
