package dev.agentbus.sandbox.commands;

import java.util.List;

/**
 * The allow and deny lists of the structured command mode ({@code run_command}), by program name.
 *
 * @param allow when not empty, only these programs may run
 * @param deny  these programs never run, even when allowed. By default the shells and the programs that run a
 *              command line or another program given as text, because through them a structured command would be a
 *              shell command again ({@code bash -c "a | b"}). The safety layer's blocked commands apply as well.
 */
public record CommandRules(List<String> allow, List<String> deny) {
    public static final List<String> DEFAULT_DENY = List.of("sh", "bash", "dash", "zsh", "ksh", "ash", "mksh",
            "fish", "csh", "tcsh", "busybox", "env", "eval", "exec", "xargs", "nohup", "setsid", "watch", "script",
            "tmux", "screen");

    public CommandRules {
        allow = allow == null ? List.of() : List.copyOf(allow);
        deny = deny == null ? List.of() : List.copyOf(deny);
    }

    public static CommandRules defaults() {
        return new CommandRules(List.of(), DEFAULT_DENY);
    }
}
