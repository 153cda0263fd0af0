package dev.agentbus.cli.chat;

import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.turn.TurnRunner;

import java.util.List;
import java.util.function.Predicate;

/**
 * Chat's slash commands: the table ({@link #table()}), in the order {@code /help} lists them, and which class does
 * what each one says. To add a command, add one entry to the table and its handler to the class of its area
 * ({@link SessionCommands}, {@link SteeringCommands}, {@link ApprovalCommands}, {@link PlanCommands},
 * {@link ContextCommands}, {@link UnreadNotifications}, {@link MemoryCommands}); {@code /help} and tab completion
 * follow from the table.
 */
final class ChatCommands {
    private final Printer printer;
    private final SlashCommands table;

    ChatCommands(Conversation conversation, Printer printer, GatewayClient gateway,
                 Predicate<TurnRunner.Result> afterTurn, ContextCommands context, UnreadNotifications notifications) {
        this.printer = printer;
        CurrentSession current = new CurrentSession(conversation, gateway);
        SessionCommands sessions = new SessionCommands(conversation, current, printer, gateway);
        SteeringCommands steering = new SteeringCommands(conversation, current, printer, gateway);
        ApprovalCommands approvals = new ApprovalCommands(conversation, current, gateway, afterTurn);
        PlanCommands planning = new PlanCommands(current, printer, gateway, approvals);
        MemoryCommands memory = new MemoryCommands(printer, gateway);
        this.table = new SlashCommands()
                .add(SlashCommand.of("/help", "/help", "this list", arg -> help()).alias("/?"))
                .add(SlashCommand.of("/new", "/new [--plan] [TITLE]",
                        "start a new session (created with your next message; Ctrl+L too); --plan: plan-first, "
                                + "the agent proposes a plan for your approval before it uses other tools",
                        sessions::newSession).choices("--plan"))
                .add(SlashCommand.of("/sessions", "/sessions", "list sessions (* marks the current one)",
                        arg -> sessions.sessions()))
                .add(SlashCommand.of("/switch", "/switch ID",
                        "continue another session (a unique prefix of its id is enough)", sessions::switchTo))
                .add(SlashCommand.of("/session", "/session", "print the current session's id",
                        arg -> sessions.session()))
                .add(SlashCommand.of("/status", "/status",
                        "the current session in short: status, mode, approvals waiting, whispers, tokens",
                        arg -> sessions.status()))
                .add(SlashCommand.of("/show", "/show",
                        "show the current session: status, conversation, tool calls, tokens", arg -> sessions.show()))
                .add(SlashCommand.of("/cancel", "/cancel", "cancel the current session's running or waiting turn",
                        arg -> steering.cancel()))
                .add(SlashCommand.of("/mode", "/mode [auto|normal|manual]",
                        "show or set the permission mode (auto: no approvals; normal: approve changes, commands "
                                + "and network; manual: approve every tool)", steering::mode)
                        .choices(SteeringCommands.MODES.toArray(String[]::new)))
                .add(SlashCommand.leaving("/approve", "/approve [always] [CALL_ID]",
                        "let the call that waits for approval run (always: this tool for the rest of the session)",
                        approvals::approve).choices("always"))
                .add(SlashCommand.leaving("/deny", "/deny [CALL_ID] [NOTE]",
                        "refuse the call that waits for approval; the agent reads your note", approvals::deny))
                .add(SlashCommand.of("/whisper", "/whisper TEXT",
                        "add a note to the current session's turn without stopping it", steering::whisper))
                .add(SlashCommand.leaving("/plan", "/plan", "show the session's plan, todos and task state",
                                planning::plan)
                        .also("/plan approve", "approve the plan that waits for you; the agent starts on it")
                        .also("/plan reject [NOTE]", "reject it; the agent reads your note and may propose another")
                        .choices("approve", "reject"))
                .add(SlashCommand.of("/todo", "/todo", "show the agent's todo list for this session",
                        arg -> planning.todos()))
                .add(SlashCommand.of("/compact", "/compact",
                        "summarise the older conversation now, so the prompt gets shorter (not during a turn)",
                        arg -> context.compact(current.require())))
                .add(SlashCommand.of("/soul", "/soul",
                        "show the session's context: preset, own system prompt, context files, tokens used",
                        arg -> context.soul(current.require())))
                .add(SlashCommand.of("/notifications", "/notifications",
                        "show your unread notifications from all your sessions, then mark them read",
                        arg -> notifications.show()))
                .add(SlashCommand.of("/rename", "/rename TITLE", "rename the current session", sessions::rename))
                .add(SlashCommand.of("/image", "/image FILE", "attach an image to your next message (a local file, "
                        + "or workspace:PATH); the session's model must take images", sessions::image))
                .add(SlashCommand.of("/memory", "/memory", "print your memory document", memory::memory)
                        .also("/memory set TEXT", "replace your memory document with TEXT")
                        .also("/memory reset", "empty your memory document")
                        .choices("set", "reset"))
                .add(SlashCommand.leaving("/quit", "/quit", "leave (so do Ctrl-D, and Ctrl-C twice)", arg -> false)
                        .alias("/exit"));
    }

    SlashCommands table() {
        return table;
    }

    private void help() {
        List<SlashCommand.HelpLine> lines = table.helpLines();
        int width = lines.stream().mapToInt(h -> h.usage().length()).max().orElse(0);
        printer.println("Type a message to talk to the agent; Ctrl-C cancels a running turn.");
        for (SlashCommand.HelpLine h : lines) {
            printer.println("  " + printer.bold(h.usage()) + " ".repeat(width - h.usage().length() + 2) + h.text());
        }
        printer.println("A line starting with // is sent as a message starting with /.");
    }
}
