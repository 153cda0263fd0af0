package dev.agentbus.cli.commands;

import dev.agentbus.api.ForkedSession;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.TransferApi;
import dev.agentbus.cli.replay.SessionLog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code agentbus import FILE}: an exported log becomes a new session on this gateway, forked from the file's
 * session at its last seq. The file is checked here first, so a broken one is reported with its line number before
 * anything is sent. The new session's workspace starts empty: the files stayed on the machine the log came from.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "import",
        description = {"Import an exported session log (JSON Lines) as a new session.",
                "The new session continues from the log's last event; its workspace starts empty."})
public final class ImportCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "FILE", description = "The .jsonl file, as agentbus export wrote it.")
    Path file;

    @Option(names = "--title", paramLabel = "T", description = "Title of the new session (default: the "
            + "original title with \" (imported)\").")
    String title;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        String jsonl;
        try {
            jsonl = Files.readString(file, StandardCharsets.UTF_8);
            SessionLog.parse(file.toString(), List.of(jsonl.split("\r?\n", -1)));
        } catch (NoSuchFileException e) {
            printer.error("no such file: " + file);
            return ExitCodes.ERROR;
        } catch (MalformedInputException e) {
            printer.error(file + " is not UTF-8 text");
            return ExitCodes.ERROR;
        } catch (IOException e) {
            printer.error("cannot read " + file + ": " + e.getMessage());
            return ExitCodes.ERROR;
        } catch (SessionLog.BadLog e) {
            printer.error(e.getMessage());
            return ExitCodes.ERROR;
        }
        TransferApi.Accepted<ForkedSession> answer = cli.gateway().transfer().importLog(jsonl, title);
        ForkedSession body = answer.body();
        String id = body.id();
        if (answer.pending()) {
            printer.error("the gateway accepted the import as session " + id + " but no orchestrator recorded it "
                    + "within its wait; is an orchestrator running?");
            return ExitCodes.ERROR;
        }
        printer.println("imported " + file + " as session " + id + " (from session "
                + body.fromSessionId() + " at seq " + body.atSeq() + ")");
        return ExitCodes.OK;
    }
}
