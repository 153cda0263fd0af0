package dev.agentbus.sandbox.commands;

import dev.agentbus.sandbox.safety.CommandSafety;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The structured command mode: one program and its arguments, run with no shell. Nothing in it is interpreted, so
 * there are no pipes, redirects, chaining, globs or variables; this class checks that the model did not expect any,
 * and that the program is allowed.
 *
 * <p>Pure: {@link #check} decides, the {@code run_command} tool runs. A refusal says what to do instead.
 */
public final class StructuredCommand {
    /** A program name ({@code ls}, {@code python3}, {@code g++}) or a path inside the workspace ({@code ./gradlew}). */
    private static final Pattern PROGRAM = Pattern.compile("[A-Za-z0-9_+][A-Za-z0-9._+-]*|\\./[A-Za-z0-9._+/-]+");
    /** Arguments that only mean something to a shell. */
    private static final Set<String> SHELL_OPERATORS = Set.of("|", "||", "&&", "&", ";", ";;", ">", ">>", "<", "<<",
            "<<<", "2>", "2>>", "&>", "&>>", "2>&1", "|&", "$(", "`");

    private StructuredCommand() {
    }

    /**
     * Why {@code command args} must not run in structured mode, or empty when it may. Also applies the safety
     * layer's blocked commands and path policy to the argv ({@code cwd} is the working directory inside the
     * sandbox).
     */
    public static Optional<String> check(String command, List<String> args, CommandRules rules,
                                         CommandSafety safety, String cwd) {
        if (!PROGRAM.matcher(command).matches() || command.contains("..")) {
            return Optional.of("'" + command + "' is not a program name: give just the program (such as ls, git or "
                    + "./build.sh) in command and each argument as its own element of args");
        }
        for (String arg : args) {
            if (arg.indexOf('\0') >= 0) {
                return Optional.of("an argument contains a NUL byte");
            }
            if (SHELL_OPERATORS.contains(arg.strip())) {
                return Optional.of("run_command runs one program without a shell, so '" + arg.strip()
                        + "' would reach " + command + " as a plain argument: pipes, redirects and chaining do not "
                        + "exist here. Run the programs one at a time, or use the shell tool");
            }
        }
        String name = command.substring(command.lastIndexOf('/') + 1);
        if (!rules.allow().isEmpty() && !rules.allow().contains(name)) {
            return Optional.of("'" + name + "' is not on this worker's list of programs allowed in run_command "
                    + "(agentbus.sandbox.commands.allow): " + String.join(", ", rules.allow()));
        }
        if (rules.deny().contains(name)) {
            return Optional.of("'" + name + "' is denied in run_command (agentbus.sandbox.commands.deny)"
                    + (CommandRules.DEFAULT_DENY.contains(name) ? ": it would run a command line or another "
                    + "program, which defeats the structured mode; run the program itself" : ""));
        }
        List<String> argv = new ArrayList<>(args.size() + 1);
        argv.add(command);
        argv.addAll(args);
        return safety.checkArgv(argv, cwd);
    }
}
