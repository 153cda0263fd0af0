package dev.agentbus.cli.render;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The gateway's session list as a table: {@code agentbus sessions} and chat's {@code /sessions}. */
public final class SessionTable {
    private static final int TITLE_WIDTH = 40;

    private SessionTable() {
    }

    /** The gateway's GET /api/v1/sessions answer, or a PROTOCOL error. */
    public static List<SessionListEntry> parse(String body) {
        try {
            List<SessionListEntry> sessions = ApiJson.readList(body, SessionListEntry.class);
            if (sessions != null) {
                return sessions;
            }
        } catch (IOException unreadable) {
            // reported below
        }
        throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                "the gateway's session list is not a JSON array");
    }

    /**
     * Prints one row per session. With {@code current} non-null, a first column marks that session with {@code *}
     * (chat's current session); with null the table is exactly what {@code agentbus sessions} prints.
     */
    public static void render(Printer printer, List<SessionListEntry> sessions, String current) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"ID", "STATUS", "TITLE", "UPDATED", "TOKENS"});
        for (SessionListEntry s : sessions) {
            String status = String.valueOf(s.status());
            String outcome = s.lastOutcome();
            // An idle session's status says little; how its last turn ended says more.
            if ("IDLE".equals(status) && outcome != null) {
                status = status + " (" + outcome + ")";
            }
            rows.add(new String[]{
                    String.valueOf(s.id()),
                    status,
                    Text.oneLine(s.title(), TITLE_WIDTH),
                    Text.localTime(s.updatedAt()),
                    Long.toString(s.usage() == null ? 0 : s.usage().totalTokens())});
        }
        int[] widths = new int[5];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].codePointCount(0, row[i].length()));
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            if (current != null) {
                line.append(r > 0 && current.equals(row[0]) ? "* " : "  ");
            }
            for (int i = 0; i < row.length; i++) {
                boolean number = i == row.length - 1;
                String cell = number ? pad(row[i], widths[i], true) : pad(row[i], widths[i], false);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            String text = line.toString().stripTrailing();
            printer.println(r == 0 ? printer.bold(text) : text);
        }
    }

    private static String pad(String s, int width, boolean right) {
        String spaces = " ".repeat(Math.max(0, width - s.codePointCount(0, s.length())));
        return right ? spaces + s : s + spaces;
    }
}
