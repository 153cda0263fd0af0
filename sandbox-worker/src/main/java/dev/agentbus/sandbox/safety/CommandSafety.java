package dev.agentbus.sandbox.safety;

import dev.agentbus.sandbox.safety.ShellSyntax.SimpleCommand;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The command safety layer: decides whether a command line (for {@code shell}, {@code tmux_new}, {@code vm_input})
 * or an argv (for {@code run_command}) may run, and if not, says why in words the model can act on.
 *
 * <p>Two rules, from {@link SafetyPolicy}:
 * <ol>
 *   <li><b>Blocked commands.</b> Every simple command of the line is looked at, including those inside
 *       {@code $(…)}, backticks, {@code sh -c '…'}, {@code eval}, {@code find -exec} and behind wrappers such as
 *       {@code env}, {@code nohup}, {@code timeout} or {@code xargs}, so {@code env sudo x} is still {@code sudo}.</li>
 *   <li><b>Workspace-only paths.</b> A word that is an absolute path (also after {@code --opt=} or {@code NAME=}),
 *       a redirection target, or a relative path with {@code ..}, must stay inside {@code /workspace} or one of the
 *       allowed system paths.</li>
 * </ol>
 *
 * <p>This is a second line of defence behind the sandbox, not a guarantee: it cannot see through variables
 * ({@code cd $X}), aliases, scripts the model wrote to a file, or interpreters ({@code python -c}). Its value is that
 * the obvious cases are refused with a reason that lands in the log, before anything runs.
 */
public final class CommandSafety {
    /** Where the workspace is inside the sandbox. */
    public static final String SANDBOX_WORKSPACE = "/workspace";

    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*", Pattern.DOTALL);
    /** Words that open or close a compound command; the word after an opening one is a command again. */
    private static final Set<String> KEYWORDS = Set.of("if", "then", "else", "elif", "fi", "do", "done", "while",
            "until", "!", "{", "}", "time", "esac", "function");
    /** Loop and case headers: their words are data, not a command. */
    private static final Set<String> HEADERS = Set.of("for", "case", "select", "in");
    private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish");
    /** Programs that run the program named in their arguments, and their options that take a value. */
    private static final Map<String, Set<String>> WRAPPERS = Map.ofEntries(
            Map.entry("env", Set.of("-u", "--unset", "-C", "--chdir")),
            Map.entry("command", Set.of()), Map.entry("builtin", Set.of()), Map.entry("exec", Set.of("-a")),
            Map.entry("nohup", Set.of()), Map.entry("setsid", Set.of()), Map.entry("time", Set.of("-f", "-o")),
            Map.entry("nice", Set.of("-n", "--adjustment")), Map.entry("ionice", Set.of("-c", "-n", "-p")),
            Map.entry("stdbuf", Set.of("-i", "-o", "-e")), Map.entry("timeout", Set.of("-s", "-k", "--signal",
                    "--kill-after")),
            Map.entry("xargs", Set.of("-I", "-n", "-P", "-d", "-s", "-L", "-E", "-a", "--max-args",
                    "--max-procs", "--delimiter", "--arg-file")),
            Map.entry("sudo", Set.of("-u", "-g", "-U", "-C", "-D", "-h", "-p", "-r", "-t")),
            Map.entry("doas", Set.of("-u", "-C")), Map.entry("busybox", Set.of()), Map.entry("chrt", Set.of()),
            Map.entry("taskset", Set.of()), Map.entry("flock", Set.of("-w", "-E")));
    /** Wrappers whose first positional argument is theirs (a duration, a mask …), not the program. */
    private static final Map<String, Integer> WRAPPER_POSITIONALS = Map.of("timeout", 1, "chrt", 1, "taskset", 1,
            "flock", 1);

    private final SafetyPolicy policy;
    private final List<Path> allowedRoots = new ArrayList<>();

    /**
     * @param extraWorkspaceRoots further absolute paths that are the workspace, e.g. its host location when the
     *                            worker runs commands on the host (unsafe host mode)
     */
    public CommandSafety(SafetyPolicy policy, List<String> extraWorkspaceRoots) {
        this.policy = policy;
        allowedRoots.add(Path.of(SANDBOX_WORKSPACE));
        extraWorkspaceRoots.forEach(r -> allowedRoots.add(Path.of(r).normalize()));
        policy.allowedPaths().forEach(p -> allowedRoots.add(Path.of(p).normalize()));
    }

    public SafetyPolicy policy() {
        return policy;
    }

    /**
     * Checks a command line a shell will run.
     *
     * @param cwd the shell's working directory inside the sandbox (relative {@code ..} paths are resolved from it);
     *            null means {@code /workspace}
     * @return why it must not run, or empty when it may
     */
    public Optional<String> checkShellLine(String line, String cwd) {
        return checkLine(line, cwd == null ? SANDBOX_WORKSPACE : cwd, 0);
    }

    /** Checks a program and its arguments that will run without a shell. */
    public Optional<String> checkArgv(List<String> argv, String cwd) {
        return checkCommand(argv, List.of(), cwd == null ? SANDBOX_WORKSPACE : cwd, 0);
    }

    /** Checks one path-like value (a working directory, a file argument) against the workspace-only rule. */
    public Optional<String> checkPath(String path, String cwd) {
        return pathRefusal(path, cwd == null ? SANDBOX_WORKSPACE : cwd);
    }

    private Optional<String> checkLine(String line, String cwd, int depth) {
        List<SimpleCommand> commands;
        try {
            commands = ShellSyntax.parse(line, depth);
        } catch (ShellSyntax.UncheckableException e) {
            return Optional.of("the command line cannot be checked because " + e.getMessage()
                    + "; fix its quoting or make it simpler");
        }
        String here = cwd;
        for (SimpleCommand c : commands) {
            Optional<String> refusal = checkCommand(c.words(), c.redirectTargets(), here, depth);
            if (refusal.isPresent()) {
                return refusal;
            }
            here = afterCd(c.words(), here);
        }
        return Optional.empty();
    }

    private Optional<String> checkCommand(List<String> words, List<String> redirects, String cwd, int depth) {
        for (String w : words) {
            Optional<String> refusal = pathRefusal(w, cwd);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        for (String target : redirects) {
            Optional<String> refusal = pathRefusal(target, cwd);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        int start = 0;
        while (start < words.size() && (KEYWORDS.contains(words.get(start))
                || ASSIGNMENT.matcher(words.get(start)).matches())) {
            start++;
        }
        if (start < words.size() && HEADERS.contains(words.get(start))) {
            return Optional.empty();
        }
        return blocked(words.subList(start, words.size()), cwd, depth);
    }

    /**
     * Follows a literal {@code cd dir} so that later {@code ..} paths of the same line are judged from there; a
     * {@code cd} it cannot follow (a variable, {@code cd -}) leaves the directory as it was.
     */
    private static String afterCd(List<String> words, String cwd) {
        if (words.size() != 2 || !words.getFirst().equals("cd") || words.get(1).contains("$")
                || words.get(1).equals("-") || words.get(1).startsWith("~")) {
            return cwd;
        }
        try {
            return Path.of(cwd).resolve(words.get(1)).normalize().toString();
        } catch (InvalidPathException e) {
            return cwd;
        }
    }

    /** The blocked-list rule, looking through wrappers and into command strings handed to another shell. */
    private Optional<String> blocked(List<String> argv, String cwd, int depth) {
        while (!argv.isEmpty()) {
            String name = baseName(argv.getFirst());
            for (String entry : policy.blockedCommands()) {
                if (matches(entry, name, argv)) {
                    return Optional.of("'" + entry + "' is on this worker's list of blocked commands "
                            + "(agentbus.sandbox.blocked-commands); do the task without it");
                }
            }
            if (SHELLS.contains(name)) {
                for (int k = 1; k < argv.size() - 1; k++) {
                    String a = argv.get(k);
                    if (a.startsWith("-") && !a.startsWith("--") && a.contains("c")) {
                        return checkLine(argv.get(k + 1), cwd, depth + 1);
                    }
                }
                return Optional.empty();
            }
            if (name.equals("eval")) {
                return checkLine(String.join(" ", argv.subList(1, argv.size())), cwd, depth + 1);
            }
            if (name.equals("find")) {
                return findExec(argv, cwd, depth);
            }
            Set<String> optionsWithValue = WRAPPERS.get(name);
            if (optionsWithValue == null) {
                return Optional.empty();
            }
            int k = 1;
            while (k < argv.size() && (argv.get(k).startsWith("-")
                    || (name.equals("env") && ASSIGNMENT.matcher(argv.get(k)).matches()))) {
                if (name.equals("env") && (argv.get(k).equals("-S") || argv.get(k).equals("--split-string"))) {
                    return k + 1 < argv.size() ? checkLine(String.join(" ", argv.subList(k + 1, argv.size())),
                            cwd, depth + 1) : Optional.empty();
                }
                k += optionsWithValue.contains(argv.get(k)) ? 2 : 1;
            }
            k += WRAPPER_POSITIONALS.getOrDefault(name, 0);
            argv = k < argv.size() ? argv.subList(k, argv.size()) : List.of();
        }
        return Optional.empty();
    }

    /** {@code find … -exec cmd {} ;} runs {@code cmd}: check each such command too. */
    private Optional<String> findExec(List<String> argv, String cwd, int depth) {
        for (int k = 1; k < argv.size(); k++) {
            if (Set.of("-exec", "-execdir", "-ok", "-okdir").contains(argv.get(k))) {
                int end = k + 1;
                while (end < argv.size() && !argv.get(end).equals(";") && !argv.get(end).equals("+")) {
                    end++;
                }
                Optional<String> refusal = blocked(argv.subList(k + 1, end), cwd, depth + 1);
                if (refusal.isPresent()) {
                    return refusal;
                }
                k = end;
            }
        }
        return Optional.empty();
    }

    private static boolean matches(String entry, String name, List<String> argv) {
        String[] parts = entry.strip().split("\\s+");
        String head = parts[0];
        boolean nameMatches = head.endsWith("*") ? name.startsWith(head.substring(0, head.length() - 1))
                : name.equals(head);
        if (!nameMatches || argv.size() < parts.length) {
            return false;
        }
        for (int k = 1; k < parts.length; k++) {
            if (!argv.get(k).equals(parts[k])) {
                return false;
            }
        }
        return true;
    }

    private static String baseName(String program) {
        int slash = program.lastIndexOf('/');
        return slash >= 0 ? program.substring(slash + 1) : program;
    }

    private Optional<String> pathRefusal(String word, String cwd) {
        if (!policy.workspaceOnlyPaths() || word.contains("://")) {
            return Optional.empty();
        }
        for (String candidate : pathCandidates(word)) {
            // The part before a variable or substitution is all that is known; a glob is checked as written.
            int unknown = candidate.indexOf('$');
            String known = unknown >= 0 ? candidate.substring(0, unknown) : candidate;
            Path resolved;
            try {
                if (known.startsWith("/")) {
                    resolved = Path.of(known).normalize();
                } else if (hasDotDot(known)) {
                    resolved = Path.of(cwd).resolve(known).normalize();
                } else {
                    continue;
                }
            } catch (InvalidPathException e) {
                return Optional.of("'" + candidate + "' is not a valid path");
            }
            if (allowedRoots.stream().noneMatch(resolved::startsWith)) {
                return Optional.of("'" + candidate + "' is outside the workspace: commands may only use paths "
                        + "under " + SANDBOX_WORKSPACE + " (and read-only system directories such as /usr); use a "
                        + "path inside the workspace");
            }
        }
        return Optional.empty();
    }

    /** The word, the value of {@code --opt=value}, or each entry of {@code NAME=a:b}. */
    private static List<String> pathCandidates(String word) {
        int eq = word.indexOf('=');
        if (word.startsWith("-") && eq > 0) {
            return List.of(word.substring(eq + 1));
        }
        if (eq > 0 && ASSIGNMENT.matcher(word).matches()) {
            return List.of(word.substring(eq + 1).split(":"));
        }
        return List.of(word);
    }

    private static boolean hasDotDot(String path) {
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
