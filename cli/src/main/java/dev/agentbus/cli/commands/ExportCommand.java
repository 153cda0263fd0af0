package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;

/**
 * {@code agentbus export ID [-o FILE]}: a session's log as JSON Lines, for {@code agentbus replay} on any machine,
 * {@code agentbus import}, or a golden history. Written as the gateway sent it, byte for byte.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "export",
        description = "Export a session's log as JSON Lines (one event envelope per line), to a file or stdout.")
public final class ExportCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id.")
    String sessionId;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of stdout.")
    Path output;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        String jsonl = cli.gateway().transfer().exportLog(sessionId);
        if (output == null) {
            printer.print(jsonl);
            return ExitCodes.OK;
        }
        try {
            // Through a temporary file beside it, so an interrupted export never leaves half a log under the name.
            Path dir = output.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".agentbus-export", ".tmp");
            Files.writeString(tmp, jsonl, StandardCharsets.UTF_8);
            Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            printer.error("cannot write " + output + ": " + e.getMessage());
            return ExitCodes.ERROR;
        }
        long events = jsonl.lines().filter(l -> !l.isBlank()).count();
        printer.println("exported " + events + " events of session " + sessionId + " to " + output);
        return ExitCodes.OK;
    }
}
