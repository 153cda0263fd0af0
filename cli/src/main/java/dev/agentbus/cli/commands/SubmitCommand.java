package dev.agentbus.cli.commands;

import dev.agentbus.api.inbox.InboxItem;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code agentbus submit "task" [--at TIME]}: drops a task into the caller's inbox (LMAgent's {@code --submit}); the
 * scheduler starts it in a new session at that time, also when nobody is connected then.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "submit",
        description = "Queue a task in your inbox: the scheduler starts it in a new session now or at --at.")
public final class SubmitCommand implements Callable<Integer> {
    private static final Pattern RELATIVE = Pattern.compile("\\+(\\d{1,6})([smhd])");

    @ParentCommand
    AgentbusCli cli;

    @Parameters(index = "0", paramLabel = "TASK", description = "What the agent should do.")
    String task;

    @Option(names = "--at", paramLabel = "TIME", description = "When to start it: an ISO-8601 time with a zone "
            + "(2026-11-26T09:00:00Z, 2026-11-26T10:00:00+01:00) or a delay from now (+30s, +10m, +2h, +1d). "
            + "Default: now.")
    String at;

    @Option(names = "--title", description = "The new session's title.")
    String title;

    @Override
    public Integer call() {
        InboxItem item = cli.gateway().inbox().submit(task, absolute(at, Clock.systemUTC()), title);
        cli.printer().println("queued inbox task " + item.id() + " for " + item.at()
                + "; it starts as session " + item.id());
        return ExitCodes.OK;
    }

    /**
     * A delay ({@code +10m}) becomes the time it names, so the gateway gets one form; anything else goes as typed, and
     * the gateway says what is wrong with it.
     */
    static String absolute(String at, Clock clock) {
        if (at == null || at.isBlank()) {
            return null;
        }
        Matcher m = RELATIVE.matcher(at.strip());
        if (!m.matches()) {
            return at.strip();
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        return Instant.now(clock).plus(d).toString();
    }
}
