package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionDetails;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;

import java.util.List;
import java.util.Locale;

import static dev.agentbus.cli.chat.CurrentSession.noSessionYet;

/**
 * Chat's commands that steer a session's turns without deciding anything that waits: {@code /cancel},
 * {@code /mode} and {@code /whisper}. Deciding approvals and plans is {@link ApprovalCommands}.
 */
final class SteeringCommands {
    static final List<String> MODES = List.of("auto", "normal", "manual");

    private final Conversation conversation;
    private final CurrentSession current;
    private final Printer printer;
    private final GatewayClient gateway;

    SteeringCommands(Conversation conversation, CurrentSession current, Printer printer, GatewayClient gateway) {
        this.conversation = conversation;
        this.current = current;
        this.printer = printer;
        this.gateway = gateway;
    }

    void cancel() {
        String session = conversation.session();
        if (session == null) {
            printer.println(noSessionYet());
            return;
        }
        gateway.turns().cancel(session);
        printer.println("cancel requested for session " + session);
    }

    void mode(String argument) {
        if (argument.isEmpty()) {
            if (conversation.session() == null) {
                printer.println("permission mode: " + (conversation.mode() != null ? conversation.mode()
                        : "the gateway's default") + " (for the session your next message creates)");
            } else {
                SessionDetails s = current.state();
                printer.println("permission mode: " + s.permissionMode()
                        + (s.alwaysAllowed() == null || s.alwaysAllowed().isEmpty() ? ""
                        : " · always allowed: " + String.join(", ", s.alwaysAllowed())));
            }
            return;
        }
        String mode = argument.toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw new Refused("usage: /mode [auto|normal|manual] (" + argument + " is not a mode)");
        }
        if (conversation.session() != null) {
            gateway.turns().setPermissionMode(conversation.session(), mode);
        }
        conversation.mode(mode);
        printer.println("permission mode: " + mode + (conversation.session() != null
                ? ", for this session and the new ones this chat starts"
                : ", for the session your next message creates"));
    }

    void whisper(String text) {
        if (text.isEmpty()) {
            throw new Refused("usage: /whisper TEXT (a note the agent reads at its next model call)");
        }
        gateway.turns().whisper(current.require(), text);
        printer.println(printer.dim("whispered; the agent reads it at its next model call"));
    }
}
