package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.eventbus.redacting.SecretRedactor;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.sandbox.shell.ShellQuoting;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns what a shell reports into the {@link ShellState} the log records, and a recorded state back into the
 * commands that restore it.
 *
 * <p>What is recorded: the working directory, and the exported variables that differ from a fresh shell's (the
 * sandbox's own PATH, HOME, LANG, TMPDIR are left out unless the agent changed them; PWD, OLDPWD, SHLVL and
 * {@code _} never, the shell keeps those itself). A variable unset by the agent is not recorded (a fresh shell
 * has it again).
 *
 * <p>Secrets: the log is kept forever and shown to the team, so a variable whose name or value looks secret (the
 * rules of {@link SecretRedactor}: names with password, secret, token, key …, values shaped like API keys) is
 * recorded with the value {@value SecretRedactor#MASK}. The live sandbox keeps the real value. A shell restored
 * from the log leaves such a variable unset rather than set to the mask: a missing variable fails loudly, a wrong
 * one silently. The agent has to export it again, and sees from the recorded state why.
 */
final class ShellStates {
    /** Kept by the shell itself; recording them would only fight with it on restore. */
    private static final Set<String> SHELL_OWNED = Set.of("PWD", "OLDPWD", "SHLVL", "_");

    private ShellStates() {
    }

    /** The recordable state from a shell's cwd (already as {@code /workspace/...}) and exported variables. */
    public static ShellState recordable(String cwd, Map<String, String> changed) {
        Map<String, String> env = new TreeMap<>();
        changed.forEach((name, value) -> env.put(name, looksSecret(name, value) ? SecretRedactor.MASK : value));
        return new ShellState(cwd, env);
    }

    /** The variables of {@code exported} that a fresh shell (with {@code baseline}) would not have. */
    public static Map<String, String> changedFrom(Map<String, String> baseline, Map<String, String> exported) {
        Map<String, String> changed = new TreeMap<>();
        exported.forEach((name, value) -> {
            if (!SHELL_OWNED.contains(name) && !value.equals(baseline.get(name))) {
                changed.put(name, value);
            }
        });
        return changed;
    }

    static boolean looksSecret(String name, String value) {
        String assignment = name + "=" + value;
        return !SecretRedactor.redact(assignment).equals(assignment) || !SecretRedactor.redact(value).equals(value);
    }

    /**
     * Commands that bring a fresh shell to {@code cwd} with {@code env} exported. A directory that no longer exists
     * leaves the shell in the workspace; masked values and names a shell cannot export are skipped.
     *
     * @param workspacePath what the shell calls the workspace (see {@link SandboxHost#workspacePath()})
     */
    public static String restoreScript(String cwd, Map<String, String> env, String workspacePath) {
        StringBuilder script = new StringBuilder();
        String target = toShellPath(cwd, workspacePath);
        script.append("cd -- ").append(ShellQuoting.quote(target)).append(" 2>/dev/null || cd -- ")
                .append(ShellQuoting.quote(workspacePath)).append('\n');
        env.forEach((name, value) -> {
            if (ShellQuoting.isVariableName(name) && !SHELL_OWNED.contains(name)
                    && !value.equals(SecretRedactor.MASK) && value.indexOf('\0') < 0) {
                script.append("export ").append(name).append('=').append(ShellQuoting.quote(value)).append('\n');
            }
        });
        return script.toString();
    }

    /** {@code /workspace/x} as the shell calls it. */
    static String toShellPath(String recorded, String workspacePath) {
        if (recorded == null || workspacePath.equals(ShellState.INITIAL.cwd())) {
            return recorded == null ? workspacePath : recorded;
        }
        String root = ShellState.INITIAL.cwd();
        if (recorded.equals(root)) {
            return workspacePath;
        }
        return recorded.startsWith(root + "/") ? workspacePath + recorded.substring(root.length()) : workspacePath;
    }

    /** The shell's cwd as it is recorded: paths under the workspace as {@code /workspace/...}. */
    static String toRecordedPath(String shellPath, String workspacePath) {
        String root = ShellState.INITIAL.cwd();
        if (shellPath == null || workspacePath.equals(root)) {
            return shellPath;
        }
        if (shellPath.equals(workspacePath)) {
            return root;
        }
        return shellPath.startsWith(workspacePath + "/") ? root + shellPath.substring(workspacePath.length())
                : shellPath;
    }
}
