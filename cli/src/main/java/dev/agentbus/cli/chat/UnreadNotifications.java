package dev.agentbus.cli.chat;

import dev.agentbus.api.notifying.NotificationItem;
import dev.agentbus.api.notifying.NotificationList;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.Text;

import java.util.Comparator;
import java.util.List;

/**
 * The user's unread notifications in chat (a turn ended, an approval waits, the agent's {@code send_notification}
 * ...): one line each, oldest first, then marked read, so the next look shows only what is new. Chat shows them when
 * it starts on a terminal (a person coming back) and on {@code /notifications}.
 */
final class UnreadNotifications {
    /** At most this many are listed (the newest); the read mark covers the rest too, and a line says how many. */
    static final int LIMIT = 50;
    private static final int WIDTH = 160;

    private final GatewayClient gateway;
    private final Printer printer;

    UnreadNotifications(GatewayClient gateway, Printer printer) {
        this.gateway = gateway;
        this.printer = printer;
    }

    /** {@code /notifications}: lists the unread ones and marks them read; says so when there are none. */
    void show() {
        NotificationList list;
        try {
            list = gateway.notifications().list(LIMIT);
        } catch (GatewayException e) {
            if (e.status() == 503) {
                throw new SlashCommand.Refused("notifications need the gateway's database, and it has none (503)");
            }
            throw e;
        }
        if (!print(list)) {
            printer.println("no unread notifications");
        }
    }

    /**
     * When chat starts: lists the unread ones and marks them read. Says nothing when there are none or when the
     * gateway cannot tell (no database, an older gateway): a courtesy must not stand in the way of the conversation.
     */
    void showAtStart() {
        try {
            print(gateway.notifications().list(LIMIT));
        } catch (GatewayException e) {
            // nothing to show; the first message reports a gateway that is really unreachable
        }
    }

    /** Prints the unread ones and marks them read; false when there were none. */
    private boolean print(NotificationList list) {
        List<NotificationItem> unread = list.items() == null ? List.of()
                : list.items().stream().filter(n -> !n.read()).sorted(Comparator.comparingLong(NotificationItem::id))
                .toList();
        if (unread.isEmpty()) {
            return false;
        }
        printer.println(printer.bold(list.unread() == 1 ? "1 unread notification" : list.unread() + " unread notifications")
                + (list.unread() > unread.size() ? printer.dim(" (the newest " + unread.size() + " shown)") : ""));
        for (NotificationItem n : unread) {
            printer.println("✉ " + (n.createdAt() == null ? "" : printer.dim(Text.localTime(n.createdAt())) + " ")
                    + Text.oneLine(n.title(), WIDTH) + (Text.isBlank(n.body()) ? "" : ": " + Text.oneLine(n.body(), WIDTH))
                    + printer.dim(" · session " + n.sessionId()));
        }
        long upTo = unread.getLast().id();
        gateway.notifications().markRead(upTo);
        return true;
    }
}
