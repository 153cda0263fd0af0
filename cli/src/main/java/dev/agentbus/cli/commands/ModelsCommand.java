package dev.agentbus.cli.commands;

import dev.agentbus.api.accounts.ModelList;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code agentbus models}: the models your sessions can use, as your model server (your own, else the team's) lists
 * them, with their context window where the server says it. A name goes to {@code agentbus run --model}.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "models",
        description = "List the models of your model server (your own, else the team's), for run --model.")
public final class ModelsCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        ModelList list = cli.gateway().models();
        String server = "own".equals(list.server()) ? "your own model server" : "the team's model server";
        if (list.models() == null || list.models().isEmpty()) {
            printer.println(server + " lists no models");
            return ExitCodes.OK;
        }
        printer.println(printer.dim(server + ":"));
        for (ModelList.Model m : list.models()) {
            printer.println(m.id() + (m.contextWindow() == null ? ""
                    : printer.dim("  (" + m.contextWindow() + " tokens of context)")));
        }
        return ExitCodes.OK;
    }
}
