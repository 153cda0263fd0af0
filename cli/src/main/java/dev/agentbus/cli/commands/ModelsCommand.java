package dev.agentbus.cli.commands;

import dev.agentbus.api.accounts.ModelList;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
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
        ModelList list = cli.gateway().search().models();
        String server = "own".equals(list.server()) ? "your own model server" : "the team's model server";
        if (list.models() == null || list.models().isEmpty()) {
            printer.println(server + " lists no models");
            return ExitCodes.OK;
        }
        printer.println(printer.dim(server + ":"));
        for (ModelList.Model m : list.models()) {
            List<String> traits = new ArrayList<>();
            if (m.contextWindow() != null) {
                traits.add(m.contextWindow() + " tokens of context");
            }
            trait(traits, m.vision(), "vision");
            trait(traits, m.tools(), "tools");
            trait(traits, m.thinking(), "thinking");
            printer.println(m.id() + (traits.isEmpty() ? "" : printer.dim("  (" + String.join(", ", traits) + ")")));
        }
        return ExitCodes.OK;
    }

    /** "vision" when it has it, "no vision" when it has not, nothing when nobody says. */
    private static void trait(List<String> traits, Boolean has, String name) {
        if (has != null) {
            traits.add(has ? name : "no " + name);
        }
    }
}
