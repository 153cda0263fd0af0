package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.admin.RebuildMemoryCommand;
import dev.agentbus.cli.admin.RebuildProjectionsCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code agentbus admin …}: operating the platform rather than using a session. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "admin",
        description = "Operate the platform: rebuild the PostgreSQL read models, rebuild memory insights.",
        subcommands = {RebuildProjectionsCommand.class, RebuildMemoryCommand.class})
public final class AdminCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Spec
    CommandSpec spec;

    public AgentbusCli cli() {
        return cli;
    }

    /** {@code agentbus admin} alone names no operation: a usage error, with the list of them. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("agentbus admin: missing command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
