package dev.agentbus.cli.chat;

import dev.agentbus.api.Context;
import dev.agentbus.api.SessionDetails;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.Text;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.InputRejected;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Chat's commands about what the model sees: {@code /soul} (the session's preset, its own system prompt and the
 * workspace's context files, with the context gauge) and {@code /compact} (summarise the older conversation now, and
 * wait for the outcome the log records: the summary, a failure, or why the orchestrator refused).
 */
final class ContextCommands {
    /** How long /compact waits for the summary: one model call; the prompt comes back after it either way. */
    static final Duration COMPACT_WAIT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final int WIDTH = 160;

    private final GatewayClient gateway;
    private final Printer printer;
    private final Duration compactWait;

    ContextCommands(GatewayClient gateway, Printer printer, Duration compactWait) {
        this.gateway = gateway;
        this.printer = printer;
        this.compactWait = compactWait;
    }

    /** {@code /soul}: what the session's system prompt is made of, and how full the model's window is. */
    void soul(String session) {
        SessionDetails s = SessionView.parse(gateway.sessions().details(session));
        Context c = s.context();
        if (c == null) {
            printer.println("the gateway sent no context for session " + session);
            return;
        }
        printer.println("preset         " + (Text.isBlank(c.preset()) ? printer.dim("none") : c.preset()));
        if (Text.isBlank(c.systemPrompt())) {
            printer.println("system prompt  " + printer.dim("the installation's"));
        } else {
            printer.println("system prompt  " + printer.dim("the session's own, " + c.systemPrompt().length()
                    + " characters:"));
            c.systemPrompt().strip().lines().limit(12).forEach(line -> printer.println("  " + Text.oneLine(line, WIDTH)));
            if (c.systemPrompt().strip().lines().count() > 12) {
                printer.println(printer.dim("  …"));
            }
        }
        List<Context.File> files = c.files() == null ? List.of() : c.files();
        if (files.isEmpty()) {
            printer.println("context files  " + printer.dim("none (.soul.md, AGENTS.md or .agentbus.md in the workspace)"));
        } else {
            printer.println("context files  " + String.join(", ", files.stream().map(f -> f.name() + " ("
                    + f.chars() + " characters" + (f.truncated() ? ", cut" : "") + ")").toList()));
        }
        printer.println("context        " + gauge(c));
    }

    private static String gauge(Context c) {
        String used = c.tokensUsed() + (c.tokensEstimated() ? " tokens (estimated)" : " tokens");
        String window = c.window() == null ? " · window unknown"
                : " of " + c.window() + " (" + Math.round(100 * (c.usedShare() == null ? 0 : c.usedShare())) + "%)";
        String summary = c.compacting() ? " · a summary is being written"
                : c.summary() == null ? "" : " · " + c.summary().messagesCovered() + " older messages summarised";
        return used + window + summary;
    }

    /**
     * {@code /compact}: asks for the summary (a 409 says why not, through the caller), then follows the log until the
     * orchestrator's answer to this input: the summary, its failure, or its refusal.
     */
    void compact(String session) {
        long before = SessionView.parse(gateway.sessions().details(session)).lastSeq();
        String inputId = gateway.turns().compact(session);
        printer.println(printer.dim("compacting: the model summarises the older conversation…"));
        long deadline = System.nanoTime() + compactWait.toNanos();
        String requestId = null;
        while (true) {
            for (EventEnvelope e : after(session, before)) {
                SessionEvent event = e.event();
                if (event instanceof InputRejected r && (inputId == null || inputId.equals(r.inputId()))) {
                    printer.println("not compacted: " + r.reason());
                    return;
                }
                if (event instanceof ContextCompactionRequested r && requestId == null
                        && (inputId == null || inputId.equals(e.causationId()))) {
                    requestId = r.requestId();
                }
                if (event instanceof ContextCompacted c && c.requestId().equals(requestId)) {
                    printer.println(printer.green("✓ compacted") + ": " + c.messagesCovered() + " older messages are "
                            + "summarised; the prompt carries the summary from now on");
                    printer.println(printer.dim("  " + Text.oneLine(c.summary(), WIDTH)));
                    return;
                }
                if (event instanceof ContextCompactionFailed f && f.requestId().equals(requestId)) {
                    printer.error("the summary failed: " + f.message() + "; the conversation is kept as it was");
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                printer.println("the summary is still being written; /soul shows when it is there");
                return;
            }
            pause();
        }
    }

    private List<EventEnvelope> after(String session, long seq) {
        return gateway.sessions().log(session).stream().map(ContextCommands::decode).flatMap(Optional::stream)
                .filter(e -> e.seq() > seq).toList();
    }

    private static Optional<EventEnvelope> decode(String line) {
        try {
            return Optional.of(EventCodec.decodeEvent(line));
        } catch (RuntimeException e) {
            return Optional.empty(); // an event this CLI does not know cannot be the answer
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlashCommand.Refused("interrupted while waiting for the summary");
        }
    }
}
