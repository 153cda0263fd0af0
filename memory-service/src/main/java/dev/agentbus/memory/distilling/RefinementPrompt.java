package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.modelclient.ChatMessage;

import java.util.List;

/** The messages that ask the model to merge a user's duplicate and conflicting insights. Pure. */
final class RefinementPrompt {
    static final String INSTRUCTIONS = """
            You tidy an AI agent's long-term memory about one user. Below are the user's insights, one per line as
            id | category | text. Find insights that say the same thing (duplicates) or contradict each other
            (conflicts; keep what the newer or more specific one says). For each group, give one merged insight that
            replaces all of the group. Leave every other insight out of your answer. Categories: identity, skill,
            preference, project, opinion, session_detail. Give a confidence between 0 and 1.
            Answer with exactly one JSON object and nothing else, in this form (an empty list if nothing to merge):
            {"merges": [{"replaces": ["id1", "id2"], "category": "preference", "text": "prefers tabs", "confidence": 0.8}]}""";

    private RefinementPrompt() {
    }

    static List<ChatMessage> messages(List<Insight> insights) {
        StringBuilder sb = new StringBuilder();
        for (Insight i : insights) {
            sb.append(i.id()).append(" | ").append(i.category().wireName()).append(" | ")
                    .append(i.text().replace('\n', ' ')).append('\n');
        }
        return List.of(new ChatMessage.System(INSTRUCTIONS), new ChatMessage.User(sb.toString().strip()));
    }
}
