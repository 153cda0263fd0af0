package dev.agentbus.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.Text;
import dev.agentbus.events.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code agentbus sessions}: the gateway's session list as a table. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "sessions", description = "List sessions: id, status, title, last update, tokens used.")
public final class SessionsCommand implements Callable<Integer> {
    private static final int TITLE_WIDTH = 40;

    @ParentCommand
    AgentbusCli cli;

    @Option(names = "--json", description = "Print the gateway's JSON as is.")
    boolean json;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        String body = cli.gateway().listSessions();
        if (json) {
            printer.println(body.strip());
            return ExitCodes.OK;
        }
        JsonNode sessions;
        try {
            sessions = Json.mapper().readTree(body);
        } catch (IOException e) {
            sessions = null;
        }
        if (sessions == null || !sessions.isArray()) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                    "the gateway's session list is not a JSON array");
        }
        if (sessions.isEmpty()) {
            printer.println("no sessions yet; start one with: agentbus run \"task\"");
            return ExitCodes.OK;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"ID", "STATUS", "TITLE", "UPDATED", "TOKENS"});
        for (JsonNode s : sessions) {
            String status = String.valueOf(Text.text(s, "status"));
            String outcome = Text.text(s, "lastOutcome");
            // An idle session's status says little; how its last turn ended says more.
            if ("IDLE".equals(status) && outcome != null) {
                status = status + " (" + outcome + ")";
            }
            rows.add(new String[]{
                    String.valueOf(Text.text(s, "id")),
                    status,
                    Text.oneLine(Text.text(s, "title"), TITLE_WIDTH),
                    Text.localTime(Text.instant(s.get("updatedAt"))),
                    Long.toString(s.path("usage").path("totalTokens").asLong(0))});
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
            for (int i = 0; i < row.length; i++) {
                boolean number = i == row.length - 1;
                String cell = number ? pad(row[i], widths[i], true) : pad(row[i], widths[i], false);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            String text = line.toString().stripTrailing();
            printer.println(r == 0 ? printer.bold(text) : text);
        }
        return ExitCodes.OK;
    }

    private static String pad(String s, int width, boolean right) {
        String spaces = " ".repeat(Math.max(0, width - s.codePointCount(0, s.length())));
        return right ? spaces + s : s + spaces;
    }
}
