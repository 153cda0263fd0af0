package dev.agentbus.cli.chat;

import dev.agentbus.api.Memory;
import dev.agentbus.api.PlanningView;
import dev.agentbus.api.SessionDetails;
import dev.agentbus.api.SessionDetails.PendingApproval;
import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.turn.ImageAttachments;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.PlanningSection;
import dev.agentbus.cli.render.SessionTable;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.turn.TurnRunner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Chat's slash commands: the table ({@link #table()}) and what each one does. To add a command, add one entry to
 * the table; {@code /help} and tab completion follow from it.
 */
final class ChatCommands {
    static final List<String> MODES = List.of("auto", "normal", "manual");

    private final Conversation conversation;
    private final Printer printer;
    private final GatewayClient gateway;
    /** Told how each turn a command streamed ended; true means leave chat (Ctrl-C pressed twice). */
    private final Predicate<TurnRunner.Result> afterTurn;
    private final SlashCommands table;
    private final ContextCommands context;
    private final UnreadNotifications notifications;

    ChatCommands(Conversation conversation, Printer printer, GatewayClient gateway,
                 Predicate<TurnRunner.Result> afterTurn, ContextCommands context, UnreadNotifications notifications) {
        this.conversation = conversation;
        this.printer = printer;
        this.gateway = gateway;
        this.afterTurn = afterTurn;
        this.context = context;
        this.notifications = notifications;
        this.table = new SlashCommands()
                .add(SlashCommand.of("/help", "/help", "this list", arg -> help()).alias("/?"))
                .add(SlashCommand.of("/new", "/new [--plan] [TITLE]",
                        "start a new session (created with your next message; Ctrl+L too); --plan: plan-first, "
                                + "the agent proposes a plan for your approval before it uses other tools",
                        this::newSession).choices("--plan"))
                .add(SlashCommand.of("/sessions", "/sessions", "list sessions (* marks the current one)",
                        arg -> sessions()))
                .add(SlashCommand.of("/switch", "/switch ID",
                        "continue another session (a unique prefix of its id is enough)", this::switchTo))
                .add(SlashCommand.of("/session", "/session", "print the current session's id", arg -> session()))
                .add(SlashCommand.of("/status", "/status",
                        "the current session in short: status, mode, approvals waiting, whispers, tokens",
                        arg -> status()))
                .add(SlashCommand.of("/show", "/show",
                        "show the current session: status, conversation, tool calls, tokens", arg -> show()))
                .add(SlashCommand.of("/cancel", "/cancel", "cancel the current session's running or waiting turn",
                        arg -> cancel()))
                .add(SlashCommand.of("/mode", "/mode [auto|normal|manual]",
                        "show or set the permission mode (auto: no approvals; normal: approve changes, commands "
                                + "and network; manual: approve every tool)", this::mode)
                        .choices(MODES.toArray(String[]::new)))
                .add(SlashCommand.leaving("/approve", "/approve [always] [CALL_ID]",
                        "let the call that waits for approval run (always: this tool for the rest of the session)",
                        this::approve).choices("always"))
                .add(SlashCommand.leaving("/deny", "/deny [CALL_ID] [NOTE]",
                        "refuse the call that waits for approval; the agent reads your note", this::deny))
                .add(SlashCommand.of("/whisper", "/whisper TEXT",
                        "add a note to the current session's turn without stopping it", this::whisper))
                .add(SlashCommand.leaving("/plan", "/plan", "show the session's plan, todos and task state",
                                this::plan)
                        .also("/plan approve", "approve the plan that waits for you; the agent starts on it")
                        .also("/plan reject [NOTE]", "reject it; the agent reads your note and may propose another")
                        .choices("approve", "reject"))
                .add(SlashCommand.of("/todo", "/todo", "show the agent's todo list for this session", arg -> todos()))
                .add(SlashCommand.of("/compact", "/compact",
                        "summarise the older conversation now, so the prompt gets shorter (not during a turn)",
                        arg -> context.compact(requireSession())))
                .add(SlashCommand.of("/soul", "/soul",
                        "show the session's context: preset, own system prompt, context files, tokens used",
                        arg -> context.soul(requireSession())))
                .add(SlashCommand.of("/notifications", "/notifications",
                        "show your unread notifications from all your sessions, then mark them read",
                        arg -> notifications.show()))
                .add(SlashCommand.of("/rename", "/rename TITLE", "rename the current session", this::rename))
                .add(SlashCommand.of("/image", "/image FILE", "attach an image to your next message (a local file, "
                        + "or workspace:PATH); the session's model must take images", this::image))
                .add(SlashCommand.of("/memory", "/memory", "print your memory document", this::memory)
                        .also("/memory set TEXT", "replace your memory document with TEXT")
                        .also("/memory reset", "empty your memory document")
                        .choices("set", "reset"))
                .add(SlashCommand.leaving("/quit", "/quit", "leave (so do Ctrl-D, and Ctrl-C twice)", arg -> false)
                        .alias("/exit"));
    }

    SlashCommands table() {
        return table;
    }

    // ---- sessions ---------------------------------------------------------------------------------------------

    private void help() {
        List<SlashCommand.HelpLine> lines = table.helpLines();
        int width = lines.stream().mapToInt(h -> h.usage().length()).max().orElse(0);
        printer.println("Type a message to talk to the agent; Ctrl-C cancels a running turn.");
        for (SlashCommand.HelpLine h : lines) {
            printer.println("  " + printer.bold(h.usage()) + " ".repeat(width - h.usage().length() + 2) + h.text());
        }
        printer.println("A line starting with // is sent as a message starting with /.");
    }

    private void newSession(String argument) {
        boolean plan = argument.equals("--plan") || argument.startsWith("--plan ");
        String title = plan ? argument.substring("--plan".length()).strip() : argument;
        String before = conversation.session();
        conversation.startNew(title.isEmpty() ? null : title, plan);
        printer.println("new session: it starts with your next message"
                + (title.isEmpty() ? "" : " (title: " + title + ")")
                + (conversation.nextPlanFirst() ? ", plan-first" : "")
                + (before == null ? "" : printer.dim(" · back to the last one: /switch " + before)));
    }

    private void sessions() {
        List<SessionListEntry> sessions = SessionTable.parse(gateway.sessions().list());
        if (sessions.isEmpty()) {
            printer.println("no sessions yet; type a message to start one");
            return;
        }
        String current = conversation.session();
        SessionTable.render(printer, sessions, current != null ? current : "");
    }

    private void switchTo(String id) {
        if (id.isEmpty() || id.contains(" ")) {
            throw new Refused("usage: /switch ID (a session id, or a unique prefix of one; /sessions lists them)");
        }
        SessionListEntry found = conversation.resolve(id);
        if (found == null) {
            return;
        }
        conversation.use(found.id());
        String title = found.title();
        String status = found.status();
        printer.println("switched to session " + found.id()
                + (Text.isBlank(title) ? "" : " · " + Text.oneLine(title, 60))
                + (status == null ? "" : " · " + status));
    }

    private void session() {
        printer.println(conversation.session() != null ? conversation.session() : noSessionYet());
    }

    private void show() {
        if (conversation.session() == null) {
            printer.println(noSessionYet()); // a fact, not an error
            return;
        }
        new SessionView(printer).render(state());
    }

    private void status() {
        if (conversation.session() == null) {
            printer.println(noSessionYet());
            printer.println("mode     " + (conversation.mode() != null ? conversation.mode() : "the gateway's default")
                    + printer.dim(" (for the session your next message creates)"));
            return;
        }
        SessionDetails s = state();
        printer.println(printer.bold(Text.isBlank(s.title()) ? "(untitled)" : Text.oneLine(s.title(), 60))
                + "  " + printer.dim(s.sessionId()));
        printer.println("status   " + s.status() + (s.lastOutcome() == null ? "" : " · last turn " + s.lastOutcome()));
        printer.println("mode     " + s.permissionMode()
                + (s.alwaysAllowed() == null || s.alwaysAllowed().isEmpty() ? ""
                : " · always allowed: " + String.join(", ", s.alwaysAllowed())));
        long tokens = s.usage() == null ? 0 : s.usage().totalTokens();
        printer.println("turns    " + s.turns() + " · tokens " + tokens);
        if (s.pendingWait() != null) {
            printer.println("waiting  until " + Text.localTime(s.pendingWait().until())
                    + (Text.isBlank(s.pendingWait().reason()) ? "" : " : " + s.pendingWait().reason()));
        }
        for (PendingApproval a : pending(s)) {
            printer.println(printer.yellow("approval " + a.tool() + " " + Text.compactJson(a.arguments(), 120))
                    + printer.dim(" · call " + a.callId() + (a.risk() == null ? "" : " · " + a.risk() + " risk")
                    + " — /approve or /deny"));
        }
        if (s.queuedWhispers() != null && !s.queuedWhispers().isEmpty()) {
            printer.println("whispers " + s.queuedWhispers().size() + " queued for the next model call");
        }
        if (!Text.isBlank(s.lastError())) {
            printer.println(printer.red("error    ") + Text.oneLine(s.lastError(), 300));
        }
    }

    private void cancel() {
        String session = conversation.session();
        if (session == null) {
            printer.println(noSessionYet());
            return;
        }
        gateway.turns().cancel(session);
        printer.println("cancel requested for session " + session);
    }

    private void image(String argument) {
        if (argument.isEmpty()) {
            List<String> queued = conversation.nextImages();
            printer.println(queued.isEmpty() ? "no image attached to your next message"
                    : "attached to your next message: " + String.join(", ", queued));
            return;
        }
        String problem = ImageAttachments.problem(argument);
        if (problem != null) {
            throw new Refused(problem);
        }
        conversation.attachImage(argument);
        printer.println("attached " + argument + " to your next message");
    }

    private void rename(String title) {
        if (title.isEmpty()) {
            throw new Refused();
        }
        gateway.sessions().rename(requireSession(), title);
        printer.println("renamed to " + title);
    }

    // ---- steering ---------------------------------------------------------------------------------------------

    private void mode(String argument) {
        if (argument.isEmpty()) {
            if (conversation.session() == null) {
                printer.println("permission mode: " + (conversation.mode() != null ? conversation.mode()
                        : "the gateway's default") + " (for the session your next message creates)");
            } else {
                SessionDetails s = state();
                printer.println("permission mode: " + s.permissionMode()
                        + (s.alwaysAllowed() == null || s.alwaysAllowed().isEmpty() ? ""
                        : " · always allowed: " + String.join(", ", s.alwaysAllowed())));
            }
            return;
        }
        String mode = argument.toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw new Refused("usage: /mode [auto|normal|manual] (" + argument + " is not a mode)");
        }
        if (conversation.session() != null) {
            gateway.turns().setPermissionMode(conversation.session(), mode);
        }
        conversation.mode(mode);
        printer.println("permission mode: " + mode + (conversation.session() != null
                ? ", for this session and the new ones this chat starts"
                : ", for the session your next message creates"));
    }

    /** {@code /approve [always] [CALL_ID]}: decides the oldest waiting call (or the one named), then follows the turn. */
    private boolean approve(String argument) {
        boolean always = false;
        String callId = null;
        for (String word : words(argument)) {
            if (word.equalsIgnoreCase("always")) {
                always = true;
            } else if (callId == null) {
                callId = word;
            } else {
                throw new Refused();
            }
        }
        String session = requireSession();
        SessionDetails state = state();
        PendingApproval target = waiting(state, callId);
        gateway.turns().decideApproval(session, target.callId(), always ? "always" : "approve", null);
        return followAfterDecision(state, target);
    }

    /** {@code /deny [CALL_ID] [NOTE]}: the first word names a call only when it is one that waits; the rest is the note. */
    private boolean deny(String argument) {
        String session = requireSession();
        SessionDetails state = state();
        List<String> words = words(argument);
        String callId = null;
        String note = argument;
        if (!words.isEmpty() && pending(state).stream().anyMatch(a -> a.callId().equals(words.get(0)))) {
            callId = words.get(0);
            note = argument.substring(argument.indexOf(callId) + callId.length()).strip();
        }
        PendingApproval target = waiting(state, callId);
        gateway.turns().decideApproval(session, target.callId(), "deny", note.isEmpty() ? null : note);
        return followAfterDecision(state, target);
    }

    /** The turn goes on after a decision: show it, as a message's turn is shown. */
    private boolean followAfterDecision(SessionDetails state, PendingApproval decided) {
        List<String> still = pending(state).stream().map(PendingApproval::callId)
                .filter(id -> !id.equals(decided.callId())).toList();
        Map<String, String> tools = new HashMap<>();
        pending(state).forEach(a -> tools.put(a.callId(), a.tool()));
        if (state.toolCalls() != null) {
            state.toolCalls().forEach((id, call) -> tools.put(id, call.name()));
        }
        return !afterTurn.test(conversation.follow(state.lastSeq(), still, tools));
    }

    /** The call a decision is about: the one named, else the oldest that waits. */
    private PendingApproval waiting(SessionDetails state, String callId) {
        List<PendingApproval> pending = pending(state);
        if (pending.isEmpty()) {
            throw new Refused("nothing waits for approval in session " + state.sessionId());
        }
        if (callId == null) {
            return pending.get(0);
        }
        return pending.stream().filter(a -> a.callId().equals(callId)).findFirst()
                .orElseThrow(() -> new Refused("no call " + callId + " waits for approval; waiting: "
                        + String.join(", ", pending.stream().map(a -> a.callId() + " (" + a.tool() + ")").toList())));
    }

    private void whisper(String text) {
        if (text.isEmpty()) {
            throw new Refused("usage: /whisper TEXT (a note the agent reads at its next model call)");
        }
        gateway.turns().whisper(requireSession(), text);
        printer.println(printer.dim("whispered; the agent reads it at its next model call"));
    }

    // ---- planning ---------------------------------------------------------------------------------------------

    /** {@code /plan}, {@code /plan approve}, {@code /plan reject [NOTE]}; false means leave (Ctrl-C twice in the turn). */
    private boolean plan(String argument) {
        String[] parts = argument.split("\\s+", 2);
        String verb = parts[0].toLowerCase(Locale.ROOT);
        String note = parts.length > 1 ? parts[1].strip() : "";
        switch (verb) {
            case "" -> {
                showPlanning();
                return true;
            }
            case "approve" -> {
                if (!note.isEmpty()) {
                    throw new Refused("usage: /plan approve (a note goes with /plan reject NOTE)");
                }
                return decidePlan("approve", null);
            }
            case "reject" -> {
                return decidePlan("reject", note.isEmpty() ? null : note);
            }
            default -> throw new Refused("usage: /plan, /plan approve or /plan reject [NOTE]");
        }
    }

    private void showPlanning() {
        String session = requireSession();
        PlanningView p = gateway.sessions().planning(session);
        PlanningSection section = new PlanningSection(printer);
        if (p.plan() == null && (p.todos() == null || p.todos().isEmpty()) && p.taskState() == null) {
            printer.println("no plan, todos or task state yet" + (p.planFirst()
                    ? " · plan-first: the agent proposes a plan before it uses other tools" : ""));
            return;
        }
        if (p.planFirst()) {
            printer.println(printer.dim("plan-first: no tool but the planning tools runs without a plan you approved"));
        }
        section.planDecidedWith(p.plan(), "/plan approve, or /plan reject [NOTE]");
        section.todos(p.todos());
        section.taskState(p.taskState());
    }

    private void todos() {
        PlanningView p = gateway.sessions().planning(requireSession());
        if (p.todos() == null || p.todos().isEmpty()) {
            printer.println("no todos yet");
            return;
        }
        new PlanningSection(printer).todos(p.todos());
    }

    /** Decides the plan that waits (its plan_create call's approval), then follows the turn as /approve does. */
    private boolean decidePlan(String decision, String note) {
        String session = requireSession();
        SessionDetails state = state();
        PlanningView.Plan plan = state.plan();
        PendingApproval target = plan == null || plan.callId() == null ? null : pending(state).stream()
                .filter(a -> a.callId().equals(plan.callId())).findFirst().orElse(null);
        if (target == null) {
            throw new Refused("no plan waits for your approval in session " + session
                    + (plan == null ? "" : " (plan #" + plan.number() + " is " + plan.status() + ")"));
        }
        gateway.turns().decidePlan(session, decision, note);
        return followAfterDecision(state, target);
    }

    // ---- memory -----------------------------------------------------------------------------------------------

    private void memory(String argument) {
        String[] parts = argument.split("\\s+", 2);
        switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "" -> {
                Memory doc = gateway.memory().get();
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
                    throw new Refused("usage: /memory set TEXT (to empty it: /memory reset)");
                }
                Memory doc = gateway.memory().set(parts[1].strip());
                printer.println("memory updated; it applies from the next turn (" + memoryVersion(doc) + ")");
            }
            case "reset" -> {
                Memory doc = gateway.memory().reset();
                printer.println("memory reset (" + memoryVersion(doc) + ")");
            }
            default -> throw new Refused("usage: /memory, /memory set TEXT, or /memory reset");
        }
    }

    private static String memoryVersion(Memory doc) {
        return "version " + doc.version() + (doc.updatedAt() != null
                ? " · updated " + Text.localTime(doc.updatedAt()) : "");
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private SessionDetails state() {
        return SessionView.parse(gateway.sessions().details(requireSession()));
    }

    private String requireSession() {
        if (conversation.session() == null) {
            throw new Refused(noSessionYet());
        }
        return conversation.session();
    }

    private static List<PendingApproval> pending(SessionDetails state) {
        return state.pendingApprovals() == null ? List.of() : state.pendingApprovals();
    }

    private static List<String> words(String argument) {
        return argument.isBlank() ? List.of() : new ArrayList<>(Arrays.asList(argument.strip().split("\\s+")));
    }

    static String noSessionYet() {
        return "no session yet; type a message to start one";
    }
}
