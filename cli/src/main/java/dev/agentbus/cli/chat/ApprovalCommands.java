package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionDetails;
import dev.agentbus.api.SessionDetails.PendingApproval;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.turn.TurnRunner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static dev.agentbus.cli.chat.CurrentSession.pending;
import static dev.agentbus.cli.chat.CurrentSession.words;

/**
 * Chat's {@code /approve} and {@code /deny}: decide a call that waits for a person, then follow the turn that goes
 * on, as a message's turn is followed. {@link PlanCommands} decides plans and follows the turn the same way.
 */
final class ApprovalCommands {
    private final Conversation conversation;
    private final CurrentSession current;
    private final GatewayClient gateway;
    /** Told how each turn a command streamed ended; true means leave chat (Ctrl-C pressed twice). */
    private final Predicate<TurnRunner.Result> afterTurn;

    ApprovalCommands(Conversation conversation, CurrentSession current, GatewayClient gateway,
                     Predicate<TurnRunner.Result> afterTurn) {
        this.conversation = conversation;
        this.current = current;
        this.gateway = gateway;
        this.afterTurn = afterTurn;
    }

    /** {@code /approve [always] [CALL_ID]}: decides the oldest waiting call (or the one named), then follows the turn. */
    boolean approve(String argument) {
        boolean always = false;
        String callId = null;
        for (String word : words(argument)) {
            if (word.equalsIgnoreCase("always")) {
                always = true;
            } else if (callId == null) {
                callId = word;
            } else {
                throw new Refused();
            }
        }
        String session = current.require();
        SessionDetails state = current.state();
        PendingApproval target = waiting(state, callId);
        gateway.turns().decideApproval(session, target.callId(), always ? "always" : "approve", null);
        return followAfterDecision(state, target);
    }

    /** {@code /deny [CALL_ID] [NOTE]}: the first word names a call only when it is one that waits; the rest is the note. */
    boolean deny(String argument) {
        String session = current.require();
        SessionDetails state = current.state();
        List<String> words = words(argument);
        String callId = null;
        String note = argument;
        if (!words.isEmpty() && pending(state).stream().anyMatch(a -> a.callId().equals(words.get(0)))) {
            callId = words.get(0);
            note = argument.substring(argument.indexOf(callId) + callId.length()).strip();
        }
        PendingApproval target = waiting(state, callId);
        gateway.turns().decideApproval(session, target.callId(), "deny", note.isEmpty() ? null : note);
        return followAfterDecision(state, target);
    }

    /**
     * The turn goes on after a decision: show it, as a message's turn is shown. {@code state} is the session as it
     * was before the decision; false means leave chat.
     */
    boolean followAfterDecision(SessionDetails state, PendingApproval decided) {
        List<String> still = pending(state).stream().map(PendingApproval::callId)
                .filter(id -> !id.equals(decided.callId())).toList();
        Map<String, String> tools = new HashMap<>();
        pending(state).forEach(a -> tools.put(a.callId(), a.tool()));
        if (state.toolCalls() != null) {
            state.toolCalls().forEach((id, call) -> tools.put(id, call.name()));
        }
        return !afterTurn.test(conversation.follow(state.lastSeq(), still, tools));
    }

    /** The call a decision is about: the one named, else the oldest that waits. */
    private static PendingApproval waiting(SessionDetails state, String callId) {
        List<PendingApproval> pending = pending(state);
        if (pending.isEmpty()) {
            throw new Refused("nothing waits for approval in session " + state.sessionId());
        }
        if (callId == null) {
            return pending.get(0);
        }
        return pending.stream().filter(a -> a.callId().equals(callId)).findFirst()
                .orElseThrow(() -> new Refused("no call " + callId + " waits for approval; waiting: "
                        + String.join(", ", pending.stream().map(a -> a.callId() + " (" + a.tool() + ")").toList())));
    }
}
