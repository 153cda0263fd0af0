package dev.agentbus.cli.commands;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.chat.ChatRepl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code agentbus chat}: the interactive conversation (LMAgent's REPL) against the gateway. See {@link ChatRepl}. */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "chat",
        description = {"Talk to the agent: each line is a message, its turn streams as with run.",
                "Commands: /help /new /sessions /switch /status /show /cancel /mode /approve /deny /whisper "
                        + "/plan /todo /compact /soul /notifications /rename /memory /quit (/help explains them).",
                "On a terminal, chat starts with your unread notifications, then marks them read.",
                "On a terminal: history with Up/Down (in $AGENTBUS_DATA_DIR/history), Tab completes commands, "
                        + "a trailing \\ or Alt+Enter continues a message on the next line, Ctrl+L starts a new "
                        + "session, Ctrl-C clears the line or cancels the running turn (twice in a row leaves), "
                        + "Ctrl-D leaves.",
                "Reads piped input too: one message (or command) per line, until the end of input.",
                "Exit code: 0 when you leave; 1 if --session cannot be used."})
public final class ChatCommand implements Callable<Integer> {

    @ParentCommand
    AgentbusCli cli;

    @Option(names = "--session", paramLabel = "ID",
            description = "Continue this session (an id, or a unique prefix of one) instead of starting a new one.")
    String sessionId;

    @Option(names = "--title", paramLabel = "T",
            description = "Title of the session your first message creates (default: the message, shortened).")
    String title;

    @Option(names = "--plan", description = {"Plan first: each session this chat creates waits for a plan you "
            + "approve (/plan approve, or /plan reject NOTE) before the agent uses other tools."})
    boolean plan;

    @Option(names = "--no-stream-reasoning", description = "Do not show the model's reasoning.")
    boolean noReasoning;

    @Override
    public Integer call() {
        return new ChatRepl(cli, sessionId, title, !noReasoning, plan).run();
    }
}
