package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionDetails;
import dev.agentbus.api.SessionDetails.PendingApproval;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.SessionTable;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.turn.ImageAttachments;

import java.util.List;

import static dev.agentbus.cli.chat.CurrentSession.noSessionYet;
import static dev.agentbus.cli.chat.CurrentSession.pending;

/**
 * Chat's commands about which session it talks to and what that session is: {@code /new}, {@code /sessions},
 * {@code /switch}, {@code /session}, {@code /status}, {@code /show}, {@code /rename}, and {@code /image} for the
 * next message.
 */
final class SessionCommands {
    private final Conversation conversation;
    private final CurrentSession current;
    private final Printer printer;
    private final GatewayClient gateway;

    SessionCommands(Conversation conversation, CurrentSession current, Printer printer, GatewayClient gateway) {
        this.conversation = conversation;
        this.current = current;
        this.printer = printer;
        this.gateway = gateway;
    }

    void newSession(String argument) {
        boolean plan = argument.equals("--plan") || argument.startsWith("--plan ");
        String title = plan ? argument.substring("--plan".length()).strip() : argument;
        String before = conversation.session();
        conversation.startNew(title.isEmpty() ? null : title, plan);
        printer.println("new session: it starts with your next message"
                + (title.isEmpty() ? "" : " (title: " + title + ")")
                + (conversation.nextPlanFirst() ? ", plan-first" : "")
                + (before == null ? "" : printer.dim(" · back to the last one: /switch " + before)));
    }

    void sessions() {
        List<SessionListEntry> sessions = SessionTable.parse(gateway.sessions().list());
        if (sessions.isEmpty()) {
            printer.println("no sessions yet; type a message to start one");
            return;
        }
        String current = conversation.session();
        SessionTable.render(printer, sessions, current != null ? current : "");
    }

    void switchTo(String id) {
        if (id.isEmpty() || id.contains(" ")) {
            throw new Refused("usage: /switch ID (a session id, or a unique prefix of one; /sessions lists them)");
        }
        SessionListEntry found = conversation.resolve(id);
        if (found == null) {
            return;
        }
        conversation.use(found.id());
        String title = found.title();
        String status = found.status();
        printer.println("switched to session " + found.id()
                + (Text.isBlank(title) ? "" : " · " + Text.oneLine(title, 60))
                + (status == null ? "" : " · " + status));
    }

    void session() {
        printer.println(conversation.session() != null ? conversation.session() : noSessionYet());
    }

    void show() {
        if (conversation.session() == null) {
            printer.println(noSessionYet()); // a fact, not an error
            return;
        }
        new SessionView(printer).render(current.state());
    }

    void status() {
        if (conversation.session() == null) {
            printer.println(noSessionYet());
            printer.println("mode     " + (conversation.mode() != null ? conversation.mode() : "the gateway's default")
                    + printer.dim(" (for the session your next message creates)"));
            return;
        }
        SessionDetails s = current.state();
        printer.println(printer.bold(Text.isBlank(s.title()) ? "(untitled)" : Text.oneLine(s.title(), 60))
                + "  " + printer.dim(s.sessionId()));
        printer.println("status   " + s.status() + (s.lastOutcome() == null ? "" : " · last turn " + s.lastOutcome()));
        printer.println("mode     " + s.permissionMode()
                + (s.alwaysAllowed() == null || s.alwaysAllowed().isEmpty() ? ""
                : " · always allowed: " + String.join(", ", s.alwaysAllowed())));
        long tokens = s.usage() == null ? 0 : s.usage().totalTokens();
        printer.println("turns    " + s.turns() + " · tokens " + tokens);
        if (s.pendingWait() != null) {
            printer.println("waiting  until " + Text.localTime(s.pendingWait().until())
                    + (Text.isBlank(s.pendingWait().reason()) ? "" : " : " + s.pendingWait().reason()));
        }
        for (PendingApproval a : pending(s)) {
            printer.println(printer.yellow("approval " + a.tool() + " " + Text.compactJson(a.arguments(), 120))
                    + printer.dim(" · call " + a.callId() + (a.risk() == null ? "" : " · " + a.risk() + " risk")
                    + " — /approve or /deny"));
        }
        if (s.queuedWhispers() != null && !s.queuedWhispers().isEmpty()) {
            printer.println("whispers " + s.queuedWhispers().size() + " queued for the next model call");
        }
        if (!Text.isBlank(s.lastError())) {
            printer.println(printer.red("error    ") + Text.oneLine(s.lastError(), 300));
        }
    }

    void rename(String title) {
        if (title.isEmpty()) {
            throw new Refused();
        }
        gateway.sessions().rename(current.require(), title);
        printer.println("renamed to " + title);
    }

    void image(String argument) {
        if (argument.isEmpty()) {
            List<String> queued = conversation.nextImages();
            printer.println(queued.isEmpty() ? "no image attached to your next message"
                    : "attached to your next message: " + String.join(", ", queued));
            return;
        }
        String problem = ImageAttachments.problem(argument);
        if (problem != null) {
            throw new Refused(problem);
        }
        conversation.attachImage(argument);
        printer.println("attached " + argument + " to your next message");
    }
}
