package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionDetails;
import dev.agentbus.api.SessionDetails.PendingApproval;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.SessionView;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The session chat's commands act on, and its state as the gateway sees it now. Shared by the command areas so that
 * "no session yet" reads the same from every command, and each reads the state fresh (a turn may have moved on).
 */
final class CurrentSession {
    private final Conversation conversation;
    private final GatewayClient gateway;

    CurrentSession(Conversation conversation, GatewayClient gateway) {
        this.conversation = conversation;
        this.gateway = gateway;
    }

    /** The current session's id; refuses the command when chat has none yet. */
    String require() {
        if (conversation.session() == null) {
            throw new Refused(noSessionYet());
        }
        return conversation.session();
    }

    /** The current session's details, read now; refuses the command when chat has no session yet. */
    SessionDetails state() {
        return SessionView.parse(gateway.sessions().details(require()));
    }

    static List<PendingApproval> pending(SessionDetails state) {
        return state.pendingApprovals() == null ? List.of() : state.pendingApprovals();
    }

    /** A command's argument split into words; none for a blank one. */
    static List<String> words(String argument) {
        return argument.isBlank() ? List.of() : new ArrayList<>(Arrays.asList(argument.strip().split("\\s+")));
    }

    static String noSessionYet() {
        return "no session yet; type a message to start one";
    }
}
