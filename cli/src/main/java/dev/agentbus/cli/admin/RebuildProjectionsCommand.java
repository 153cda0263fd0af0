package dev.agentbus.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.commands.AdminCommand;
import dev.agentbus.cli.gateway.GatewayClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code agentbus admin rebuild-projections}: has the gateway empty its PostgreSQL read models and rebuild them from
 * offset 0 of the session log with the code it runs now, then follows the progress until the rebuild has caught up
 * with the log. Exits 0 when it has, 1 when the gateway refuses (for example without PostgreSQL) or the wait runs out.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AgentbusCli.Version.class, name = "rebuild-projections",
        description = {"Empty the read models (sessions list, search, token analytics, audit) and rebuild them "
                + "from the session log, then show progress until done.",
                "Queries keep working during the rebuild, on rows that fill up again."})
public final class RebuildProjectionsCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Mixin
    RebuildWaiting waiting;

    @Override
    public Integer call() throws InterruptedException {
        AgentbusCli cli = admin.cli();
        Printer printer = cli.printer();
        GatewayClient gateway = cli.gateway();

        JsonNode started = gateway.admin().rebuildProjections();
        long run = started.path("run").asLong();
        printer.println(String.format(Locale.ROOT, "rebuild started (run %d): %,d offsets of the session log to read",
                run, started.path("offsetsTotal").asLong()));
        if (waiting.noWait) {
            printer.println("follow it with: curl …/api/v1/admin/rebuild-projections, or run this without --no-wait");
            return ExitCodes.OK;
        }

        long deadline = System.nanoTime() + Duration.ofSeconds(waiting.timeoutSeconds).toNanos();
        double shown = -1;
        while (true) {
            JsonNode status = gateway.admin().projectionStatus();
            if (status.path("run").asLong() != run) {
                printer.error("another rebuild (run " + status.path("run").asLong() + ") started meanwhile; "
                        + "it replaces this one");
                return ExitCodes.ERROR;
            }
            if ("caught_up".equals(status.path("state").asText())) {
                printer.println(String.format(Locale.ROOT, "done: %,d events applied%s%s",
                        status.path("eventsApplied").asLong(), rate(status), skipped(status)));
                return ExitCodes.OK;
            }
            double percent = status.path("percent").asDouble();
            if (percent != shown) {
                shown = percent;
                printer.println(String.format(Locale.ROOT, "  %5.1f%%  %,d events%s", percent,
                        status.path("eventsApplied").asLong(), rate(status)));
            }
            if (System.nanoTime() > deadline) {
                printer.error("the rebuild has not caught up after " + waiting.timeoutSeconds + " s; it goes on in the "
                        + "gateway (check again with GET /api/v1/admin/rebuild-projections)");
                return ExitCodes.ERROR;
            }
            Thread.sleep(waiting.pollMillis);
        }
    }

    private static String rate(JsonNode status) {
        JsonNode rate = status.path("eventsPerSecond");
        return rate.isNumber() ? String.format(Locale.ROOT, " (%,.0f events/s)", rate.asDouble()) : "";
    }

    private static String skipped(JsonNode status) {
        long skipped = status.path("recordsSkipped").asLong();
        return skipped == 0 ? "" : String.format(Locale.ROOT, "; %,d unreadable records skipped (see the gateway's "
                + "log)", skipped);
    }
}
