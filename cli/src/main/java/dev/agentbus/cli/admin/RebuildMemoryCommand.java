package dev.agentbus.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.commands.AdminCommand;
import dev.agentbus.cli.gateway.GatewayClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code agentbus admin rebuild-memory [--user U]}: has the memory-service distil users' insights again from the
 * whole session log with the extraction it runs now, and swap each user's new set in at once. With {@code --user}
 * it waits until that user's insights were replaced (exit 0) or the wait runs out (exit 1; the rebuild goes on);
 * for every user it returns once the rebuild was asked for, since it cannot know how many users there are.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "rebuild-memory",
        description = {"Distil memory insights again from the whole session log with today's extraction, and "
                + "replace each user's distilled insights at once (insights a person wrote or protected stay).",
                "Needs distillation on in the memory-service (AGENTBUS_MEMORY_DISTILL_ENABLED=true)."})
public final class RebuildMemoryCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Option(names = "--user", paramLabel = "USER", description = "Only this user's insights (a user id).")
    String user;

    @Mixin
    RebuildWaiting waiting;

    @Override
    public Integer call() throws InterruptedException {
        AgentbusCli cli = admin.cli();
        Printer printer = cli.printer();
        GatewayClient gateway = cli.gateway();

        JsonNode started = gateway.admin().rebuildMemory(user);
        String id = started.path("rebuildId").asText();
        printer.println("memory rebuild " + id + " asked for " + (user == null ? "every user" : "user " + user));
        if (waiting.noWait || user == null) {
            printer.println("follow it with: curl …/api/v1/admin/rebuild-memory/" + id);
            return ExitCodes.OK;
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(waiting.timeoutSeconds).toNanos();
        while (true) {
            JsonNode done = gateway.admin().memoryRebuildStatus(id).path("users").path(user);
            if (done.isNumber()) {
                printer.println("done: the insights of " + user + " are now version " + done.asLong());
                return ExitCodes.OK;
            }
            if (System.nanoTime() > deadline) {
                printer.error("the insights of " + user + " were not replaced within " + waiting.timeoutSeconds + " s; the "
                        + "rebuild goes on in the memory-service if it runs with distillation on (check again with "
                        + "GET /api/v1/admin/rebuild-memory/" + id + ")");
                return ExitCodes.ERROR;
            }
            Thread.sleep(waiting.pollMillis);
        }
    }
}
