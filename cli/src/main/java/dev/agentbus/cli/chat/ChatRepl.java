package dev.agentbus.cli.chat;

import dev.agentbus.api.Memory;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.CliContext;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.InterruptHook;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.render.SessionTable;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.turn.TurnRunner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The interactive conversation: {@code agentbus chat}, and plain {@code agentbus} on a terminal.
 *
 * <p>Each line is a message to the current session, and its turn is streamed exactly as {@code run} streams one
 * ({@link TurnRunner}); the session is created with the first message unless one was given. Lines starting with
 * {@code /} are commands (see {@link #HELP}); {@code //} sends a message that starts with {@code /}.
 *
 * <p>Ctrl-C during a turn cancels the turn and comes back to the prompt; Ctrl-C or Ctrl-D at the prompt leaves with
 * exit 0. Nothing the gateway answers ends the conversation: 409, 404, an unreachable gateway are printed and the
 * prompt comes back. Without a terminal (input piped) there is no prompt; each line read is echoed as
 * {@code you> line} so the output reads like the conversation, and the end of the input ends chat with exit 0.
 */
public final class ChatRepl {
    /** After Ctrl-C, how long to keep streaming for the CANCELLED ending before returning to the prompt anyway. */
    static final Duration CANCEL_GRACE = Duration.ofSeconds(5);

    static final String PROMPT = "you> ";

    static final List<String[]> HELP = List.of(
            new String[]{"/help", "this list"},
            new String[]{"/new [TITLE]", "start a new session (created with your next message)"},
            new String[]{"/sessions", "list sessions (* marks the current one)"},
            new String[]{"/switch ID", "continue another session (a unique prefix of its id is enough)"},
            new String[]{"/session", "print the current session's id"},
            new String[]{"/show", "show the current session: status, conversation, tool calls, tokens"},
            new String[]{"/cancel", "cancel the current session's running or waiting turn"},
            new String[]{"/whisper TEXT", "add a note to the current session's turn without stopping it"},
            new String[]{"/rename TITLE", "rename the current session"},
            new String[]{"/memory", "print your memory document"},
            new String[]{"/memory set TEXT", "replace your memory document with TEXT"},
            new String[]{"/memory reset", "empty your memory document"},
            new String[]{"/quit", "leave (so do Ctrl-D and Ctrl-C at the prompt)"});

    private final CliContext context;
    private final Printer printer;
    private final GatewayClient gateway;
    private final TurnRunner runner;
    private final String startSession;
    private final boolean interactive;

    /** The session messages go to; null until the first message creates one (and after /new). */
    private String session;
    /** The title of the session the next message creates: --title or /new TITLE; null means the message, shortened. */
    private String nextTitle;

    public ChatRepl(AgentbusCli cli, String sessionId, String title, boolean showReasoning) {
        this.context = cli.context();
        this.printer = cli.printer();
        this.gateway = cli.gateway();
        this.runner = new TurnRunner(gateway, printer, context.interrupts(), false, showReasoning, CANCEL_GRACE);
        this.startSession = sessionId;
        this.nextTitle = Text.isBlank(title) ? null : title.strip();
        this.interactive = context.interactive();
    }

    /** Runs until the end of input, /quit, or Ctrl-C at the prompt (all exit 0); 1 if --session cannot be used. */
    public int run() {
        if (startSession != null) {
            try {
                SessionListEntry found = resolve(startSession);
                if (found == null) {
                    return ExitCodes.ERROR; // resolve() said why
                }
                session = found.id();
                nextTitle = null;
            } catch (GatewayException e) {
                printer.error(e.getMessage());
                return ExitCodes.ERROR;
            }
        }
        if (interactive) {
            printer.println(printer.dim("agentbus chat · " + gateway.baseUrl()
                    + " · type a message, /help for commands, Ctrl-D to leave"));
        }
        if (session != null) {
            printer.println(printer.dim("session " + session));
        }

        LineSource lines = new LineSource(context.stdin());
        InterruptHook interrupts = context.interrupts();
        while (true) {
            String text;
            // Armed while waiting for input and while a slash command runs: Ctrl-C there means "leave".
            InterruptHook.Registration atPrompt = interrupts.arm(lines::interrupt);
            try {
                if (interactive) {
                    printer.prompt(printer.bold(PROMPT));
                }
                String line = lines.next();
                if (line == null) {
                    if (interactive) {
                        printer.print("\n"); // Ctrl-D / Ctrl-C left the cursor after the prompt
                    }
                    return ExitCodes.OK;
                }
                if (!interactive) {
                    printer.println(PROMPT + line);
                }
                String input = line.strip();
                if (input.isEmpty()) {
                    continue;
                }
                if (input.startsWith("/") && !input.startsWith("//")) {
                    if (!command(input)) {
                        return ExitCodes.OK;
                    }
                    continue;
                }
                text = input.startsWith("//") ? input.substring(1) : input;
            } finally {
                atPrompt.close();
            }
            send(text); // arms its own Ctrl-C: cancel the turn
        }
    }

    // ---- messages ---------------------------------------------------------------------------------------------

    private void send(String text) {
        try {
            long after;
            if (session == null) {
                String id = TurnRunner.createSession(gateway, nextTitle != null ? nextTitle : Text.oneLine(text, 60));
                session = id;
                nextTitle = null;
                after = 0; // a new session: its whole log is this turn
                printer.println(printer.dim("session " + id));
            } else {
                after = TurnRunner.lastSeq(gateway, session);
            }
            runner.send(session, after, text);
        } catch (GatewayException e) {
            printer.error(e.getMessage() + hint(e));
        } catch (RuntimeException e) {
            unexpected(e);
        }
    }

    private String hint(GatewayException e) {
        return switch (e.kind()) {
            case CONFLICT -> " (/cancel stops it)";
            case NOT_FOUND -> session != null ? " (/new starts a new session, /sessions lists them)" : "";
            default -> "";
        };
    }

    // ---- slash commands ---------------------------------------------------------------------------------------

    /** Runs one slash command; false means leave. */
    private boolean command(String input) {
        String[] parts = input.split("\\s+", 2);
        String name = parts[0].toLowerCase(Locale.ROOT);
        String arg = parts.length > 1 ? parts[1].strip() : "";
        try {
            switch (name) {
                case "/help", "/?" -> help();
                case "/new" -> newSession(arg);
                case "/sessions" -> sessions();
                case "/switch" -> switchTo(arg);
                case "/session" -> printer.println(session != null ? session : noSessionYet());
                case "/show" -> show();
                case "/cancel" -> cancel();
                case "/whisper" -> whisper(arg);
                case "/rename" -> rename(arg);
                case "/memory" -> memory(arg);
                case "/quit", "/exit" -> {
                    return false;
                }
                default -> printer.error("unknown command " + parts[0] + "; type /help for the list"
                        + " (to send a message starting with /, type // instead)");
            }
        } catch (GatewayException e) {
            printer.error(e.getMessage());
        } catch (RuntimeException e) {
            unexpected(e);
        }
        return true;
    }

    private void whisper(String text) {
        if (text.isEmpty()) {
            printer.error("usage: /whisper TEXT (a note the agent reads at its next model call)");
            return;
        }
        if (session == null) {
            printer.error(noSessionYet());
            return;
        }
        gateway.whisper(session, text);
        printer.println(printer.dim("whispered; the agent reads it at its next model call"));
    }

    private void rename(String title) {
        if (title.isEmpty()) {
            printer.error("usage: /rename TITLE");
            return;
        }
        if (session == null) {
            printer.error(noSessionYet());
            return;
        }
        gateway.rename(session, title);
        printer.println("renamed to " + title);
    }

    private void help() {
        int width = HELP.stream().mapToInt(h -> h[0].length()).max().orElse(0);
        printer.println("Type a message to talk to the agent; Ctrl-C cancels a running turn.");
        for (String[] h : HELP) {
            printer.println("  " + printer.bold(h[0]) + " ".repeat(width - h[0].length() + 2) + h[1]);
        }
        printer.println("A line starting with // is sent as a message starting with /.");
    }

    private void newSession(String title) {
        session = null;
        nextTitle = title.isEmpty() ? null : title;
        printer.println("new session: it starts with your next message"
                + (nextTitle == null ? "" : " (title: " + nextTitle + ")"));
    }

    private void sessions() {
        List<SessionListEntry> sessions = SessionTable.parse(gateway.listSessions());
        if (sessions.isEmpty()) {
            printer.println("no sessions yet; type a message to start one");
            return;
        }
        SessionTable.render(printer, sessions, session != null ? session : "");
    }

    private void switchTo(String id) {
        if (id.isEmpty() || id.contains(" ")) {
            printer.error("usage: /switch ID (a session id, or a unique prefix of one; /sessions lists them)");
            return;
        }
        SessionListEntry found = resolve(id);
        if (found == null) {
            return;
        }
        session = found.id();
        nextTitle = null;
        String title = found.title();
        String status = found.status();
        printer.println("switched to session " + session
                + (Text.isBlank(title) ? "" : " · " + Text.oneLine(title, 60))
                + (status == null ? "" : " · " + status));
    }

    /**
     * The session an id or id prefix names, from the gateway's list: an exact id wins, else exactly one id must
     * start with it. Prints why and returns null when none or several match.
     */
    private SessionListEntry resolve(String idOrPrefix) {
        List<SessionListEntry> sessions = SessionTable.parse(gateway.listSessions());
        List<SessionListEntry> matches = new ArrayList<>();
        for (SessionListEntry s : sessions) {
            String id = s.id();
            if (idOrPrefix.equals(id)) {
                return s;
            }
            if (id != null && id.startsWith(idOrPrefix)) {
                matches.add(s);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            printer.error("no session " + idOrPrefix + " (/sessions lists them)");
        } else {
            List<String> ids = matches.stream().map(SessionListEntry::id).limit(5).toList();
            printer.error(idOrPrefix + " is the start of " + matches.size() + " session ids (" + String.join(", ", ids)
                    + (matches.size() > ids.size() ? ", …" : "") + "); type more of it");
        }
        return null;
    }

    private void show() {
        if (session == null) {
            printer.println(noSessionYet());
            return;
        }
        new SessionView(printer).render(SessionView.parse(gateway.session(session)));
    }

    private void cancel() {
        if (session == null) {
            printer.println(noSessionYet());
            return;
        }
        gateway.cancel(session);
        printer.println("cancel requested for session " + session);
    }

    private void memory(String arg) {
        String[] parts = arg.split("\\s+", 2);
        String sub = parts[0].toLowerCase(Locale.ROOT);
        switch (sub) {
            case "" -> {
                Memory doc = gateway.memory();
                String content = doc.content();
                if (Text.isBlank(content)) {
                    printer.println("memory is empty (set it with /memory set TEXT)");
                } else {
                    printer.println(content.strip());
                }
                printer.println(printer.dim(memoryVersion(doc)));
            }
            case "set" -> {
                if (parts.length < 2 || parts[1].isBlank()) {
                    printer.error("usage: /memory set TEXT (to empty it: /memory reset)");
                    return;
                }
                Memory doc = gateway.setMemory(parts[1].strip());
                printer.println("memory updated; it applies from the next turn (" + memoryVersion(doc) + ")");
            }
            case "reset" -> {
                Memory doc = gateway.resetMemory();
                printer.println("memory reset (" + memoryVersion(doc) + ")");
            }
            default -> printer.error("usage: /memory, /memory set TEXT, or /memory reset");
        }
    }

    private static String memoryVersion(Memory doc) {
        return "version " + doc.version() + (doc.updatedAt() != null
                ? " · updated " + Text.localTime(doc.updatedAt()) : "");
    }

    private static String noSessionYet() {
        return "no session yet; type a message to start one";
    }

    private void unexpected(RuntimeException e) {
        // A bug, not a situation: say so plainly, keep the conversation going, trace only when asked for.
        printer.error("unexpected error: " + e);
        if (context.env("AGENTBUS_DEBUG") != null) {
            printer.trace(e);
        }
    }
}
