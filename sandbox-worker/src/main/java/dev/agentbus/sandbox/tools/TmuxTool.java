package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.SandboxException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Interactive programs through tmux inside the sandbox: {@code tmux_new} (start a program in a window or pane),
 * {@code tmux_list}, {@code tmux_read} (a pane's last lines), {@code vm_input} (type text) and {@code vm_keys}
 * (press approved keys only).
 *
 * <p>tmux runs in the session's persistent sandbox, on its own socket ({@code tmux -L agentbus}) and with no
 * configuration file, in one session named {@code agentbus} whose panes stay open after their program exits
 * ({@code remain-on-exit}), so the model can still read what a finished program printed. Everything runs without a
 * shell; what the model types or starts is checked by the safety layer first (in {@link ToolExecutor}), because a
 * pane running a shell would run it. A restarted sandbox ({@code restart_terminal}) has no tmux server any more.
 */
final class TmuxTool implements Tool {
    enum Action { NEW, LIST, READ, INPUT, KEYS }

    static final String SESSION = "agentbus";
    static final String WORKDIR = "/workspace";
    /** The keys {@code vm_keys} may press: navigation, editing, answering prompts and stopping programs. */
    static final Set<String> APPROVED_KEYS = Set.of("Enter", "Tab", "BTab", "Escape", "Space", "BSpace", "DC", "Up",
            "Down", "Left", "Right", "Home", "End", "PageUp", "PageDown", "PPage", "NPage", "F1", "F2", "F3", "F4",
            "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "C-c", "C-d", "C-z", "C-l", "C-a", "C-e", "C-u",
            "C-w", "C-r", "y", "n", "q");
    private static final Pattern TARGET = Pattern.compile("[A-Za-z0-9_.:%@$-]{1,64}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,32}");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** How long a program gets to draw its screen before the tool shows it. */
    private static final long SETTLE_MILLIS = 400;
    static final int DEFAULT_LINES = 50;
    static final int MAX_LINES = 2000;
    static final int MAX_INPUT_CHARS = 4096;
    private static final String PANE_FORMAT = "#{session_name}:#{window_index}.#{pane_index}";
    /** Raw pane state, turned into words by {@link #describeState}: "run:cat" or "dead:0". */
    private static final String PANE_STATE = "#{?pane_dead,dead:#{pane_dead_status},run:#{pane_current_command}}";

    private final Action action;

    TmuxTool(Action action) {
        this.action = action;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        return switch (action) {
            case NEW -> start(args, ctx);
            case LIST -> list(ctx);
            case READ -> read(args, ctx);
            case INPUT -> input(args, ctx);
            case KEYS -> keys(args, ctx);
        };
    }

    private ToolOutcome start(Args args, ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        String command = args.optionalString("command").orElse(null);
        String name = args.optionalString("name").orElse(null);
        String split = args.optionalString("split").orElse(null);
        if (command != null && command.isBlank()) {
            command = null;
        }
        if (name != null && !NAME.matcher(name).matches()) {
            throw new ToolFailure("name must be 1 to 32 letters, digits, '.', '_' or '-'");
        }
        if (split != null && name != null) {
            throw new ToolFailure("name is for a new window; a pane made with split belongs to the window it splits");
        }
        ensureSession(ctx);
        List<String> argv;
        if (split == null) {
            argv = tmux("new-window", "-t", SESSION + ":", "-c", WORKDIR, "-P", "-F", PANE_FORMAT + " #{pane_id}");
            if (name != null) {
                argv.addAll(List.of("-n", name));
            }
        } else {
            argv = tmux("split-window", "-t", target(split), args.optionalBoolean("vertical", false) ? "-v" : "-h",
                    "-c", WORKDIR, "-P", "-F", PANE_FORMAT + " #{pane_id}");
        }
        if (command != null) {
            argv.add(command);
        }
        CommandResult made = run(ctx, argv);
        String[] ids = made.output().strip().split(" ");
        Thread.sleep(SETTLE_MILLIS);
        String screen = capture(ctx, ids[0], 20);
        return ToolOutcome.success("started " + (command == null ? "an interactive shell" : command) + " in pane "
                + ids[0] + (ids.length > 1 ? " (" + ids[1] + ")" : "") + "; read it with tmux_read, type with "
                + "vm_input, press keys with vm_keys. Its screen now:\n" + screen);
    }

    private ToolOutcome list(ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        if (!serverRunning(ctx)) {
            return ToolOutcome.success("no tmux session is running; start a program with tmux_new\n");
        }
        String sessions = run(ctx, tmux("list-sessions", "-F",
                "#{session_name}: #{session_windows} windows")).output();
        String windows = run(ctx, tmux("list-windows", "-a", "-F",
                "#{session_name}:#{window_index} #{window_name}: #{window_panes} panes#{?window_active, (current),}"))
                .output();
        StringBuilder panes = new StringBuilder();
        for (String line : run(ctx, tmux("list-panes", "-a", "-F", PANE_FORMAT + " #{pane_id}\t" + PANE_STATE
                + "\t#{pane_width}x#{pane_height}#{?pane_active, (active),}")).output().lines().toList()) {
            String[] f = line.split("\t", 3);
            panes.append(f.length < 3 ? line : f[0] + " " + describeState(f[1]) + " " + f[2]).append('\n');
        }
        return ToolOutcome.success("sessions:\n" + indent(sessions) + "windows:\n" + indent(windows) + "panes:\n"
                + indent(panes.toString()));
    }

    private ToolOutcome read(Args args, ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        String target = target(args.optionalString("target").orElse(null));
        int lines = args.optionalInt("lines").orElse(DEFAULT_LINES);
        if (lines < 1 || lines > MAX_LINES) {
            throw new ToolFailure("lines must be between 1 and " + MAX_LINES);
        }
        requireServer(ctx);
        String[] state = run(ctx, tmux("display-message", "-p", "-t", target, PANE_FORMAT + "\t" + PANE_STATE))
                .output().strip().split("\t", 2);
        String shown = state.length < 2 ? String.join(" ", state) : state[0] + " " + describeState(state[1]);
        return ToolOutcome.success("pane " + shown + ", last lines:\n" + capture(ctx, target, lines));
    }

    private ToolOutcome input(Args args, ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        String data = args.requiredString("data");
        String target = target(args.optionalString("target").orElse(null));
        boolean enter = args.optionalBoolean("enter", true);
        if (data.length() > MAX_INPUT_CHARS) {
            throw new ToolFailure("data is " + data.length() + " characters, at most " + MAX_INPUT_CHARS
                    + " can be typed at once");
        }
        if (data.contains("\n") || data.contains("\r")) {
            throw new ToolFailure("data must be one line; send each line with its own vm_input (Enter is pressed "
                    + "after it unless enter is false)");
        }
        requireServer(ctx);
        if (!data.isEmpty()) {
            run(ctx, tmux("send-keys", "-t", target, "-l", "--", data)); // -l: literally, no key names
        }
        if (enter) {
            run(ctx, tmux("send-keys", "-t", target, "Enter"));
        }
        Thread.sleep(SETTLE_MILLIS);
        return ToolOutcome.success("typed " + data.length() + " characters" + (enter ? " and Enter" : "")
                + " into " + target + ". Its screen now:\n" + capture(ctx, target, 20));
    }

    private ToolOutcome keys(Args args, ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        List<String> keys = args.optionalStringList("keys")
                .orElseThrow(() -> new ToolFailure("missing required argument: keys"));
        String target = target(args.optionalString("target").orElse(null));
        if (keys.isEmpty() || keys.size() > 32) {
            throw new ToolFailure("keys must list 1 to 32 keys");
        }
        for (String key : keys) {
            if (!APPROVED_KEYS.contains(key)) {
                throw new ToolFailure("'" + key + "' is not an approved key; allowed: "
                        + String.join(", ", APPROVED_KEYS.stream().sorted().toList())
                        + ". To type text use vm_input");
            }
        }
        requireServer(ctx);
        List<String> argv = tmux("send-keys", "-t", target);
        argv.addAll(keys);
        run(ctx, argv);
        Thread.sleep(SETTLE_MILLIS);
        return ToolOutcome.success("pressed " + String.join(" ", keys) + " in " + target + ". Its screen now:\n"
                + capture(ctx, target, 20));
    }

    /** The pane's last {@code lines} non-trailing-blank lines, scrollback included. */
    private String capture(ToolContext ctx, String target, int lines)
            throws ToolFailure, SandboxException, InterruptedException {
        String text = run(ctx, tmux("capture-pane", "-p", "-J", "-t", target, "-S", "-" + lines)).output();
        List<String> all = new ArrayList<>(text.lines().toList());
        // tmux marks a finished program's pane with a last line "Pane is dead (status N, <time>)"; the header of
        // tmux_read says so already, and the line would take the place of one of the program's own lines.
        while (!all.isEmpty() && (all.getLast().isBlank() || all.getLast().startsWith("Pane is dead ("))) {
            all.removeLast();
        }
        List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
        return last.isEmpty() ? "(the pane is empty)\n" : String.join("\n", last) + "\n";
    }

    /** The agentbus session, created with an idle shell in window 0 when the server is not running yet. */
    private void ensureSession(ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        if (serverRunning(ctx)) {
            return;
        }
        run(ctx, tmux("new-session", "-d", "-s", SESSION, "-n", "shell", "-x", "200", "-y", "50", "-c", WORKDIR,
                ";", "set-option", "-g", "remain-on-exit", "on", ";", "set-option", "-g", "history-limit", "5000"));
    }

    private boolean serverRunning(ToolContext ctx) throws SandboxException, InterruptedException {
        CommandResult r = ctx.sandbox().exec(tmux("has-session", "-t", SESSION), WORKDIR, TIMEOUT, null);
        return !r.timedOut() && r.exitCode() == 0;
    }

    private void requireServer(ToolContext ctx) throws ToolFailure, SandboxException, InterruptedException {
        if (!serverRunning(ctx)) {
            throw new ToolFailure("no tmux session is running in the sandbox; start a program with tmux_new first");
        }
    }

    private static CommandResult run(ToolContext ctx, List<String> argv)
            throws ToolFailure, SandboxException, InterruptedException {
        CommandResult r = ctx.sandbox().exec(argv, WORKDIR, TIMEOUT, null);
        if (r.timedOut()) {
            throw new ToolFailure("tmux did not answer within " + TIMEOUT.toSeconds() + " s");
        }
        if (r.exitCode() != 0) {
            throw new ToolFailure("tmux " + argv.get(5) + " failed: " + Programs.firstLine(r));
        }
        return r;
    }

    /** {@code tmux -L agentbus -f /dev/null <words>}: our own server, untouched by any configuration file. */
    static List<String> tmux(String... words) {
        List<String> argv = new ArrayList<>(List.of("tmux", "-L", SESSION, "-f", "/dev/null"));
        argv.addAll(List.of(words));
        return argv;
    }

    private static String target(String given) throws ToolFailure {
        if (given == null || given.isBlank()) {
            return SESSION + ":";
        }
        if (!TARGET.matcher(given).matches() || given.startsWith("-")) {
            throw new ToolFailure("'" + given + "' is not a tmux target; use one that tmux_list shows, such as "
                    + SESSION + ":1.0 or %3");
        }
        return given;
    }

    /**
     * "running cat", or "exited with status 0". tmux can know a pane is dead a moment before it has its status, and
     * its {@code #{?…}} test reads a status of 0 as false, so the words are made here rather than in the format.
     */
    static String describeState(String raw) {
        if (raw.startsWith("dead:")) {
            String status = raw.substring(5).strip();
            return status.isEmpty() ? "exited" : "exited with status " + status;
        }
        return "running " + (raw.startsWith("run:") ? raw.substring(4) : raw);
    }

    private static String indent(String lines) {
        StringBuilder out = new StringBuilder();
        lines.lines().forEach(l -> out.append("  ").append(l).append('\n'));
        return out.toString();
    }
}
