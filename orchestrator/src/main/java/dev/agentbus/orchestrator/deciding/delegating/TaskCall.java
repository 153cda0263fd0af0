package dev.agentbus.orchestrator.deciding.delegating;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.input.SessionInput.StartSubAgent;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.orchestrator.deciding.Outgoing;
import dev.agentbus.orchestrator.deciding.remembering.OwnerOnlyMemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The decider's rule for the model's {@code task} call: start a sub-agent, or say why not.
 *
 * <p>Starting one is a decision, recorded once as {@code sub_agent.started.v1} in the parent's log, and the child's
 * {@code start_sub_agent.v1} goes out in the same transaction ({@link Outgoing}). A replay folds the event and sends
 * nothing, so a child is never started twice. The call stays open until the child's result comes back
 * ({@link SubAgentResults}); the turn waits for it as for any tool result.
 *
 * <p>A call over {@link SubAgentLimits#maxRunning()} is answered at once with an error rather than queued: a queue
 * would be state the model cannot see, and the model can simply ask again once a child answered (the parent waits
 * for every call of a reply before its next model call anyway).
 */
public final class TaskCall {
    private static final int MAX_TITLE_CHARS = 60;

    private TaskCall() {
    }

    /** What a {@code task} call becomes: the events to record and the child's start to send with them. */
    public record Started(List<SessionEvent> events, List<Outgoing> outgoing) {
    }

    /**
     * @param args           the call's arguments, a JSON object (the decider checked it)
     * @param installationCap the installation's iteration cap; a child never gets more
     * @param ids            where the child's session id comes from
     */
    public static Started start(SessionState parent, String callId, JsonNode args, SubAgentLimits limits,
                                int installationCap, Supplier<String> ids) {
        String prompt = text(args, "prompt");
        if (prompt == null) {
            return failed(callId, "task needs prompt: the complete task for the sub-agent");
        }
        if (parent.subAgents().parent() != null) {
            return failed(callId, "a sub-agent cannot start sub-agents of its own");
        }
        int running = parent.subAgents().running().size();
        if (running >= limits.maxRunning()) {
            return failed(callId, "not started: " + running + " sub-agents are running already, the most one session "
                    + "may run at once; call task again once one of them has answered");
        }
        List<String> tools = limits.defaultTools();
        if (args.has("tools") && !args.get("tools").isNull()) {
            Optional<List<String>> asked = toolList(args.get("tools"));
            if (asked.isEmpty()) {
                return failed(callId, "tools must be an array of tool names");
            }
            for (String tool : asked.get()) {
                Optional<String> why = SubAgentTools.notAllowed(tool);
                if (why.isPresent()) {
                    return failed(callId, why.get());
                }
            }
            tools = asked.get();
        }
        int cap = Math.min(limits.maxIterations(), installationCap);
        if (args.has("max_iterations") && !args.get("max_iterations").isNull()) {
            JsonNode n = args.get("max_iterations");
            if (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 1) {
                return failed(callId, "max_iterations must be a whole number of 1 or more");
            }
            // More than the setting allows is not an error: the child simply gets the most there is.
            cap = Math.min(n.asInt(), cap);
        }
        String description = text(args, "description");
        String title = "Sub-agent: " + abbreviated(description != null ? description : prompt);
        String childId = ids.get();
        return new Started(
                List.of(new SubAgentStarted(callId, childId, description != null ? description : abbreviated(prompt),
                        tools, cap)),
                // An incognito parent's children are incognito too: nothing of the task may reach memory through them.
                // So are the children of a turn a group member started: the owner's memory stays out of them as well.
                List.of(new Outgoing(childId, new StartSubAgent(parent.sessionId(), callId, title, prompt, tools, cap,
                        parent.permissionMode(),
                        parent.context().incognito() || OwnerOnlyMemory.withheld(parent)))));
    }

    private static Optional<List<String>> toolList(JsonNode node) {
        if (!node.isArray()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (JsonNode n : node) {
            if (!n.isTextual() || n.asText().isBlank()) {
                return Optional.empty();
            }
            if (!names.contains(n.asText().strip())) {
                names.add(n.asText().strip());
            }
        }
        return Optional.of(names);
    }

    private static String text(JsonNode args, String field) {
        JsonNode n = args.get(field);
        return n != null && n.isTextual() && !n.asText().isBlank() ? n.asText().strip() : null;
    }

    private static String abbreviated(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_TITLE_CHARS ? line : line.substring(0, MAX_TITLE_CHARS - 1) + "…";
    }

    private static Started failed(String callId, String error) {
        return new Started(List.of(new ToolCallCompleted(callId, false, null, error, null, false, 0, false)),
                List.of());
    }
}
