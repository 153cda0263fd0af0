package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.orchestrator.deciding.Compaction;

import java.util.List;

/**
 * The prompt that asks the model for a summary of the older conversation: the summary so far (after an earlier
 * compaction) and the messages the pending compaction covers since, as a transcript, without tools. Pure, so the
 * summarising call can be explained from the log like any other.
 */
public final class SummaryPrompt {
    /** A long tool result says little more in a summary than its beginning; the transcript keeps this much of it. */
    static final int MAX_RESULT_CHARS = 2000;

    static final String INSTRUCTIONS = """
            You compress the history of a working session between a person and an AI agent, so that the agent can \
            go on with less context. Write a summary the agent can continue from: the task and its goal, decisions \
            and their reasons, facts learned (file names, paths, commands, values, errors and their fixes), what was \
            done and with what result, and what is still open. Keep exact names and numbers; leave out pleasantries \
            and anything that no longer matters. Answer with the summary only.""";

    private SummaryPrompt() {
    }

    /** The prompt for the pending compaction of {@code state}; empty when none is pending. */
    public static List<ChatMessage> build(SessionState state) {
        ContextState c = state.context();
        if (c.compacting() == null) {
            return List.of();
        }
        List<Message> messages = state.messages();
        int from = c.messagesSummarised();
        int to = Math.min(c.compacting().messagesCovered(), messages.size());
        int pinned = Compaction.pinnedIndex(messages);
        StringBuilder sb = new StringBuilder();
        if (c.summary() != null) {
            sb.append("The summary so far:\n").append(c.summary().text()).append("\n\nWhat happened since:\n");
        } else {
            sb.append("The conversation:\n");
        }
        for (int i = from; i < to; i++) {
            if (i == pinned) {
                continue; // kept word for word next to the summary
            }
            switch (messages.get(i)) {
                case Message.User u -> sb.append("\n[person] ").append(u.text());
                case Message.Notice n -> sb.append("\n[platform] ").append(n.text());
                case Message.Assistant a -> {
                    if (a.content() != null && !a.content().isBlank()) {
                        sb.append("\n[agent] ").append(a.content());
                    }
                    for (ToolCallSpec call : a.toolCalls()) {
                        sb.append("\n[agent calls ").append(call.name()).append("] ").append(call.arguments());
                    }
                }
                case Message.Tool t -> sb.append("\n[result of ").append(t.name()).append("] ")
                        .append(abbreviated(t.content()));
            }
        }
        sb.append("\n\nWrite the ").append(c.summary() != null ? "updated " : "").append("summary now.");
        return List.of(new ChatMessage.System(INSTRUCTIONS), new ChatMessage.User(sb.toString()));
    }

    private static String abbreviated(String text) {
        if (text == null || text.length() <= MAX_RESULT_CHARS) {
            return text;
        }
        return text.substring(0, MAX_RESULT_CHARS) + " … <" + (text.length() - MAX_RESULT_CHARS)
                + " more characters>";
    }
}
