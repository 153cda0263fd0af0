package dev.agentbus.cli.admin;

import picocli.CommandLine.Option;

/** How an admin rebuild command waits for the rebuild it started: the options both rebuild commands share. */
final class RebuildWaiting {
    @Option(names = "--no-wait", description = "Start the rebuild and return at once.")
    boolean noWait;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "3600",
            description = "Give up waiting after this long (the rebuild goes on). Default: ${DEFAULT-VALUE}.")
    long timeoutSeconds;

    @Option(names = "--poll-ms", hidden = true, defaultValue = "500")
    long pollMillis;
}
