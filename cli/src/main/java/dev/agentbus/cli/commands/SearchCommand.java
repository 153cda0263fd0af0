package dev.agentbus.cli.commands;

import dev.agentbus.api.SearchResults;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code agentbus search WORDS… [--mode text|semantic|hybrid]}: your messages and the agent's answers that match, best
 * first, one line each with the session id and seq to open them by ({@code agentbus show}). The gateway checks the
 * mode; a mode it cannot serve (semantic search without an embedding model) is its 400 message and exit code 1.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "search",
        description = {"Search your sessions' messages: by words (text), by meaning (semantic) or both (hybrid).",
                "Without --mode the gateway chooses: hybrid when it has an embedding model, else text."})
public final class SearchCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Parameters(arity = "1..*", paramLabel = "WORDS", description = "What to search for.")
    List<String> words;

    @Option(names = "--mode", paramLabel = "MODE", description = "text, semantic or hybrid.")
    String mode;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "At most N results (1-100).")
    int limit;

    @Override
    public Integer call() {
        Printer printer = cli.printer();
        SearchResults found = cli.gateway().search().messages(String.join(" ", words), mode, limit);
        if (found.results() == null || found.results().isEmpty()) {
            printer.println(printer.dim("nothing found (" + found.mode() + ")"));
            return ExitCodes.OK;
        }
        printer.println(printer.dim(found.results().size() + " found (" + found.mode() + "):"));
        for (SearchResults.Hit h : found.results()) {
            printer.println(printer.bold(h.title() == null ? "(untitled)" : h.title())
                    + printer.dim("  " + h.sessionId() + " #" + h.seq() + " " + h.role()));
            printer.println("  " + h.snippet().replaceAll("\\s+", " ").strip());
        }
        return ExitCodes.OK;
    }
}
