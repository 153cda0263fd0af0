package dev.agentbus.cli.commands;

import dev.agentbus.api.inbox.InboxItem;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.render.Text;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code agentbus inbox [--cancel ID]}: the tasks {@code submit} queued, and which session each started. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "inbox",
        description = "List your inbox: tasks waiting for their time, and tasks started (with their session).")
public final class InboxCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Option(names = "--cancel", paramLabel = "ID", description = "Cancel this task, if it has not started.")
    String cancel;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        if (cancel != null) {
            cli.gateway().inbox().cancel(cancel);
            printer.println("cancelled inbox task " + cancel);
            return ExitCodes.OK;
        }
        List<InboxItem> items = cli.gateway().inbox().list();
        if (items.isEmpty()) {
            printer.println("your inbox is empty; queue a task with: agentbus submit \"task\" --at +1h");
            return ExitCodes.OK;
        }
        for (InboxItem i : items) {
            String when = InboxItem.STARTED.equals(i.status()) ? "started " + i.startedAt() + "  session " + i.sessionId()
                    : "queued for " + i.at();
            printer.println(i.id() + "  " + when + "  " + Text.oneLine(i.text(), 60));
        }
        return ExitCodes.OK;
    }
}
