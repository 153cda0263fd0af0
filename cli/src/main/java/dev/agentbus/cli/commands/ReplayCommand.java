package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.replay.Replayer;
import dev.agentbus.cli.replay.SessionLog;
import dev.agentbus.events.session.EventEnvelope;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code agentbus replay <session-id | file.jsonl> [--at SEQ] [--step]}: the timeline of a recorded session and its
 * state at any seq. From a file it needs no gateway at all (a log exported on another machine); from an id it reads
 * the log from the gateway. Either way nothing is re-run: the model's answers and the tools' results are in the log.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "replay",
        description = {"Replay a recorded session: its timeline, and its state at any seq. Never calls the model "
                + "or runs a tool.",
                "SOURCE is an exported .jsonl file (works offline, no gateway needed), - for standard input, or a "
                        + "session id (read from the gateway)."})
public final class ReplayCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "SOURCE", description = "A .jsonl file, - (standard input), or a session id.")
    String source;

    @Option(names = "--at", paramLabel = "SEQ", description = "Show the timeline up to SEQ and the state at SEQ "
            + "(default: the whole log and the final state).")
    Long at;

    @Option(names = "--step", description = "One event per line read from standard input: Enter shows the next, "
            + "s the state there, q stops. Starts after --at if given.")
    boolean step;

    @Override
    public Integer call() throws IOException {
        Printer printer = cli.printer();
        List<EventEnvelope> log;
        try {
            log = read();
        } catch (SessionLog.BadLog e) {
            printer.error(e.getMessage());
            return ExitCodes.ERROR;
        }
        Replayer replay = new Replayer(log, printer, ZoneId.systemDefault());
        if (at != null && (at < 1 || at > replay.lastSeq())) {
            printer.error("--at " + at + " is not a seq of this session: it has seqs 1 to " + replay.lastSeq());
            return ExitCodes.USAGE;
        }
        if (step) {
            if ("-".equals(source)) {
                printer.error("--step reads its commands from standard input, so the log must come from a file "
                        + "or the gateway, not from -");
                return ExitCodes.USAGE;
            }
            BufferedReader input = new BufferedReader(new InputStreamReader(cli.context().stdin(), StandardCharsets.UTF_8));
            replay.step(at == null ? 0 : at, input, cli.context().interactive());
            return ExitCodes.OK;
        }
        long upTo = at == null ? replay.lastSeq() : at;
        replay.timeline(upTo);
        replay.state(upTo);
        return ExitCodes.OK;
    }

    /**
     * A file when SOURCE names one (or ends in .jsonl, so a mistyped file name is not sent to the gateway as an id),
     * standard input for -, otherwise a session id.
     */
    private List<EventEnvelope> read() throws SessionLog.BadLog, IOException {
        if ("-".equals(source)) {
            BufferedReader in = new BufferedReader(new InputStreamReader(cli.context().stdin(), StandardCharsets.UTF_8));
            return SessionLog.parse("standard input", in.lines().toList());
        }
        Path file = Path.of(source);
        if (Files.isRegularFile(file) || source.endsWith(".jsonl") || source.endsWith(".ndjson")) {
            try {
                return SessionLog.parse(source, Files.readAllLines(file, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                throw new SessionLog.BadLog("no such file: " + source);
            } catch (MalformedInputException e) {
                throw new SessionLog.BadLog(source + " is not UTF-8 text");
            }
        }
        return SessionLog.parse("the gateway's log of " + source, cli.gateway().sessions().log(source));
    }
}
