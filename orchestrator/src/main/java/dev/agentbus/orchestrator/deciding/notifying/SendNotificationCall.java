package dev.agentbus.orchestrator.deciding.notifying;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.Urgency;
import dev.agentbus.events.tools.ToolCatalog;

import java.util.List;
import java.util.Optional;

/**
 * The decider's rule for the agent's {@code send_notification} call (OS-Agent's): the orchestrator answers it
 * itself, since all it does is record {@code notification.posted.v1}, which the gateway's notification queue turns
 * into a notification for the session's owner (and which the session's WebSocket connections and event streams
 * show). No sandbox is involved, so nothing can be left half done: the notification and the call's result are
 * recorded together, exactly once.
 *
 * <p>Pure: the events depend only on the call, so they are given/when/then tested like the rest of the decider.
 */
public final class SendNotificationCall {

    private SendNotificationCall() {
    }

    /**
     * The events that answer one call, in order, for the decider to emit: the notification and a result that tells
     * the model it was sent, or only a failed result that says what to fix.
     *
     * @param args the call's arguments, a JSON object (the decider checked it)
     */
    public static List<SessionEvent> answer(String callId, JsonNode args) {
        JsonNode given = args.get("message");
        String message = given != null && given.isTextual() ? given.asText().strip() : "";
        if (message.isEmpty()) {
            return failed(callId, "send_notification needs message: the text for the user");
        }
        if (message.length() > ToolCatalog.MAX_NOTIFICATION_CHARS) {
            return failed(callId, "the message has " + message.length() + " characters; a notification has at most "
                    + ToolCatalog.MAX_NOTIFICATION_CHARS + ", so shorten it (details belong in your reply)");
        }
        Urgency urgency = Urgency.NORMAL;
        if (args.hasNonNull("urgency")) {
            Optional<Urgency> parsed = Urgency.parse(args.get("urgency").asText());
            if (parsed.isEmpty() || !args.get("urgency").isTextual()) {
                return failed(callId, "urgency must be low, normal or high");
            }
            urgency = parsed.get();
        }
        return List.of(new NotificationPosted(message, null, urgency, callId),
                new ToolCallCompleted(callId, true, "Notification sent (" + urgency.wireName() + " urgency). The user "
                        + "finds it in their notifications.", null, null, false, 0, false));
    }

    private static List<SessionEvent> failed(String callId, String error) {
        return List.of(new ToolCallCompleted(callId, false, null, error, null, false, 0, false));
    }
}
