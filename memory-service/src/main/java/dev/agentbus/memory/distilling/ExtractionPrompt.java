package dev.agentbus.memory.distilling;

import dev.agentbus.modelclient.ChatMessage;

import java.util.List;

/** The messages that ask the model what one completed turn says about the person. Pure. */
final class ExtractionPrompt {
    static final String INSTRUCTIONS = """
            You distil long-term memory about a user from one exchange between the user and an AI agent.
            Extract only durable, useful facts about the USER (not about the agent, not the task's content unless it \
            says something about the user's work), in these categories:
            - identity: who they are (name, role, team, location, language)
            - skill: what they know or are learning
            - preference: how they like things done (tools, style, formats)
            - project: what they work on and its context
            - opinion: views they hold
            - session_detail: a fact only useful for a short while
            Each insight is one short sentence in the third person. Give a confidence between 0 and 1.
            If there is nothing worth remembering, answer with an empty list.
            Answer with exactly one JSON object and nothing else, in this form:
            {"insights": [{"category": "preference", "text": "prefers tabs over spaces", "confidence": 0.8}]}""";

    private ExtractionPrompt() {
    }

    static List<ChatMessage> messages(CompletedTurn turn, int maxChars) {
        StringBuilder transcript = new StringBuilder();
        for (CompletedTurn.Line line : turn.lines()) {
            transcript.append(line.speaker() == CompletedTurn.Speaker.USER ? "USER: " : "AGENT: ")
                    .append(line.text().strip()).append("\n\n");
        }
        String text = transcript.toString().strip();
        if (text.length() > maxChars) {
            // The end of a turn holds the answer and the person's last word; keep it.
            text = "…" + text.substring(text.length() - maxChars);
        }
        return List.of(new ChatMessage.System(INSTRUCTIONS), new ChatMessage.User(text));
    }
}
