package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.CliContext;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.InterruptHook;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.turn.TurnRunner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The interactive conversation: {@code agentbus chat}, and plain {@code agentbus} on a terminal.
 *
 * <p>Each line is a message to the current session, and its turn is streamed exactly as {@code run} streams one
 * ({@link TurnRunner}); the session is created with the first message unless one was given. Lines starting with
 * {@code /} are commands ({@link ChatCommands}); {@code //} sends a message that starts with {@code /}. A turn that
 * stops to wait for a person's approval gives the prompt back, for {@code /approve} or {@code /deny}, which then
 * follow the rest of the turn.
 *
 * <p>On a terminal, lines come from the line editor ({@link TerminalInput}: history, multi-line input, completion,
 * Ctrl+L) and Ctrl-C follows {@link CtrlC}: clear the line, cancel the turn, twice in a row leave. On a terminal,
 * chat starts by listing the user's unread notifications ({@link UnreadNotifications}) and marking them read. Without one
 * (input piped) there is no prompt; each line read is echoed as {@code you> line} so the output reads like the
 * conversation, Ctrl-C at the prompt leaves, and the end of the input ends chat with exit 0. Nothing the gateway
 * answers ends the conversation: 409, 404, an unreachable gateway are printed and the prompt comes back.
 */
public final class ChatRepl {
    /** After Ctrl-C, how long to keep streaming for the CANCELLED ending before returning to the prompt anyway. */
    static final Duration CANCEL_GRACE = Duration.ofSeconds(5);

    static final String PROMPT = "you> ";

    private final CliContext context;
    private final Printer printer;
    private final GatewayClient gateway;
    private final String startSession;
    private final boolean interactive;
    private final Conversation conversation;
    private final ChatCommands commands;
    private final UnreadNotifications notifications;
    private final CtrlC ctrlC = new CtrlC();

    public ChatRepl(AgentbusCli cli, String sessionId, String title, boolean showReasoning) {
        this(cli, sessionId, title, showReasoning, false);
    }

    /** {@code planFirst}: every session this chat creates is plan-first ({@code chat --plan}). */
    public ChatRepl(AgentbusCli cli, String sessionId, String title, boolean showReasoning, boolean planFirst) {
        this.context = cli.context();
        this.printer = cli.printer();
        this.gateway = cli.gateway();
        TurnRunner runner = new TurnRunner(gateway, printer, context.interrupts(), false, showReasoning, CANCEL_GRACE,
                true);
        this.startSession = sessionId;
        this.interactive = context.interactive();
        this.conversation = new Conversation(gateway, printer, runner, title, planFirst);
        this.notifications = new UnreadNotifications(gateway, printer);
        this.commands = new ChatCommands(conversation, printer, gateway, this::leaveAfter,
                new ContextCommands(gateway, printer, ContextCommands.COMPACT_WAIT), notifications);
    }

    /** Where the line editor keeps what was typed, across runs: {@code $AGENTBUS_DATA_DIR/history}. */
    static Path historyFile(CliContext context) {
        return context.dataDir().resolve("history");
    }

    /** Runs until the end of input, /quit, or Ctrl-C to leave (all exit 0); 1 if --session cannot be used. */
    public int run() {
        if (startSession != null) {
            try {
                SessionListEntry found = conversation.resolve(startSession);
                if (found == null) {
                    return ExitCodes.ERROR; // resolve() said why
                }
                conversation.use(found.id());
            } catch (GatewayException e) {
                printer.error(e.getMessage());
                return ExitCodes.ERROR;
            }
        }
        if (interactive) {
            printer.println(printer.dim("agentbus chat · " + gateway.baseUrl()
                    + " · type a message, /help for commands, Ctrl-D to leave"));
            // A person coming back sees what happened meanwhile. Not for piped input: a script feeding chat must not
            // use up the person's unread notifications. Before the line editor takes the terminal: a terminal's
            // answer to the editor's queries that arrives during a slow request would be typed into the first line.
            notifications.showAtStart();
        }
        try (ChatInput input = openInput()) {
            if (conversation.session() != null) {
                printer.println(printer.dim("session " + conversation.session()));
            }
            return loop(input);
        }
    }

    private ChatInput openInput() {
        if (context.lineEditor()) {
            try {
                return TerminalInput.open(historyFile(context), commands.table());
            } catch (IOException | RuntimeException e) {
                printer.warn("no line editor on this terminal (" + e.getMessage() + "); reading plain lines");
            }
        }
        return new PipedInput(context.stdin(), printer, interactive);
    }

    private int loop(ChatInput input) {
        InterruptHook interrupts = context.interrupts();
        while (true) {
            String text;
            // Armed while waiting for input and while a slash command runs: Ctrl-C there is the input's to handle.
            InterruptHook.Registration atPrompt = interrupts.arm(input::interrupt);
            try {
                printer.newline();
                ChatInput.Read read = input.read(printer.bold(PROMPT));
                switch (read) {
                    case ChatInput.Read.End end -> {
                        if (interactive) {
                            printer.print("\n"); // Ctrl-D / Ctrl-C left the cursor after the prompt
                        }
                        return ExitCodes.OK;
                    }
                    case ChatInput.Read.Interrupted interrupted -> {
                        switch (ctrlC.atPrompt(interrupted.typed())) {
                            case CLEAR_LINE -> {
                                // the editor dropped the line; the next prompt starts empty
                            }
                            case HINT -> printer.println(printer.dim("(Ctrl-C again to leave, or Ctrl-D)"));
                            case LEAVE -> {
                                return ExitCodes.OK;
                            }
                        }
                        continue;
                    }
                    case ChatInput.Read.Line line -> {
                        ctrlC.lineEntered();
                        if (!interactive) {
                            printer.println(PROMPT + line.text());
                        }
                        String entered = line.text().strip();
                        if (entered.isEmpty()) {
                            continue;
                        }
                        if (entered.startsWith("/") && !entered.startsWith("//")) {
                            if (!command(entered)) {
                                return ExitCodes.OK;
                            }
                            continue;
                        }
                        text = entered.startsWith("//") ? entered.substring(1) : entered;
                    }
                }
            } finally {
                atPrompt.close();
            }
            if (!send(text)) { // arms its own Ctrl-C: cancel the turn
                return ExitCodes.OK;
            }
        }
    }

    /** Sends a message and streams its turn; false means leave (Ctrl-C twice). */
    private boolean send(String text) {
        try {
            return !leaveAfter(conversation.send(text));
        } catch (GatewayException e) {
            printer.error(e.getMessage() + hint(e));
        } catch (RuntimeException e) {
            unexpected(e);
        }
        return true;
    }

    /** After a turn this chat streamed (a message's, or the rest of one after /approve): leave on Ctrl-C twice. */
    private boolean leaveAfter(TurnRunner.Result result) {
        return ctrlC.afterTurn(result.presses());
    }

    private String hint(GatewayException e) {
        return switch (e.kind()) {
            case CONFLICT -> " (/cancel stops it)";
            case NOT_FOUND -> conversation.session() != null ? " (/new starts a new session, /sessions lists them)" : "";
            default -> "";
        };
    }

    /** Runs one slash command; false means leave. */
    private boolean command(String input) {
        try {
            return commands.table().run(input, printer);
        } catch (GatewayException e) {
            printer.error(e.getMessage());
        } catch (RuntimeException e) {
            unexpected(e);
        }
        return true;
    }

    private void unexpected(RuntimeException e) {
        // A bug, not a situation: say so plainly, keep the conversation going, trace only when asked for.
        printer.error("unexpected error: " + e);
        if (context.env("AGENTBUS_DEBUG") != null) {
            printer.trace(e);
        }
    }
}
