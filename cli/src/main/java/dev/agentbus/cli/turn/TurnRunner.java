package dev.agentbus.cli.turn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.api.CreatedSession;
import dev.agentbus.cli.InterruptHook;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.cli.gateway.SessionStream;
import dev.agentbus.cli.render.PlanReviewer;
import dev.agentbus.cli.render.SessionView;
import dev.agentbus.cli.render.TurnRenderer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One turn, as {@code run} and {@code chat} both show it: open the session's event stream, post the message, render
 * the turn as it happens until {@code turn.ended.v1}, and turn Ctrl-C into a cancel.
 *
 * <p>Ctrl-C posts {@code /cancel} (bounded to 3 s) and then either stops streaming at once ({@code cancelGrace} zero,
 * what {@code run} does: the turn is over as far as the user is concerned) or keeps streaming for up to
 * {@code cancelGrace} so that the {@code CANCELLED} ending is shown and the session is idle again before the next
 * prompt ({@code chat}). A second Ctrl-C during that wait stops at once.
 *
 * <p>With {@code pauseAtApprovals} (chat), streaming also stops while a call of the turn waits for a person's
 * approval, so that the person gets the prompt back to decide ({@code /approve}); {@link #follow} then picks the
 * turn up again from where it paused.
 */
public final class TurnRunner {
    private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(3);

    /** What the stream listener returns to stop following at a pending approval; never an exit code. */
    private static final int PAUSED = Integer.MIN_VALUE;

    /**
     * How a turn ended for the caller. {@code exitCode} is the code derived from the outcome (see ExitCodes), or null
     * when streaming stopped before the turn ended (interrupted, or paused). {@code interrupted}: the user pressed
     * Ctrl-C, {@code presses} times. {@code pausedAfter}: the seq streaming paused after because calls wait for
     * approval, or -1 when it did not pause.
     */
    public record Result(Integer exitCode, boolean interrupted, int presses, long pausedAfter) {
        public boolean paused() {
            return pausedAfter >= 0;
        }
    }

    private final GatewayClient gateway;
    private final Printer printer;
    private final InterruptHook interrupts;
    private final boolean quiet;
    private final boolean showReasoning;
    private final Duration cancelGrace;
    private PlanReviewer planReviewer;
    private final boolean pauseAtApprovals;

    public TurnRunner(GatewayClient gateway, Printer printer, InterruptHook interrupts, boolean quiet,
                      boolean showReasoning, Duration cancelGrace) {
        this(gateway, printer, interrupts, quiet, showReasoning, cancelGrace, false);
    }

    public TurnRunner(GatewayClient gateway, Printer printer, InterruptHook interrupts, boolean quiet,
                      boolean showReasoning, Duration cancelGrace, boolean pauseAtApprovals) {
        this.gateway = gateway;
        this.printer = printer;
        this.interrupts = interrupts;
        this.quiet = quiet;
        this.showReasoning = showReasoning;
        this.cancelGrace = cancelGrace;
        this.pauseAtApprovals = pauseAtApprovals;
    }

    /**
     * Creates a session and returns its id. A session the gateway accepted but no orchestrator recorded within its
     * 10 s wait (202 pending) is an error here: a message to it would only get "no session".
     */
    public static String createSession(GatewayClient gateway, String title) {
        return createSession(gateway, title, null, false);
    }

    /** {@link #createSession(GatewayClient, String)}, in plan-first mode when {@code planFirst}. */
    public static String createSession(GatewayClient gateway, String title, boolean planFirst) {
        return createSession(gateway, title, null, planFirst);
    }

    /** {@link #createSession(GatewayClient, String)} with a permission mode (null: the gateway's default). */
    public static String createSession(GatewayClient gateway, String title, String mode) {
        return createSession(gateway, title, mode, false);
    }

    /** {@link #createSession(GatewayClient, String)} with a permission mode (null: the default), plan-first or not. */
    public static String createSession(GatewayClient gateway, String title, String mode, boolean planFirst) {
        return createSession(gateway, title, mode, planFirst, null);
    }

    /** {@link #createSession(GatewayClient, String, boolean)} with the session's own model (null: the default). */
    public static String createSession(GatewayClient gateway, String title, boolean planFirst, String model) {
        return createSession(gateway, title, null, planFirst, model);
    }

    private static String createSession(GatewayClient gateway, String title, String mode, boolean planFirst,
                                        String model) {
        CreatedSession created = gateway.sessions().create(title, mode, planFirst, model);
        if (created.isPending()) {
            throw new GatewayException(GatewayException.Kind.HTTP, 202, "the gateway accepted session "
                    + created.id() + " but no orchestrator has created it within 10 s; is an orchestrator running?");
        }
        return created.id();
    }

    /** The seq a session is at now: a turn started after this call streams from here. */
    public static long lastSeq(GatewayClient gateway, String sessionId) {
        return lastSeqOf(gateway.sessions().details(sessionId));
    }

    public static long lastSeqOf(String stateJson) {
        return SessionView.parse(stateJson).lastSeq();
    }

    /** Who decides a plan that waits for approval during the turn ({@code run --plan}: the person at the terminal). */
    public TurnRunner reviewPlansWith(PlanReviewer reviewer) {
        this.planReviewer = reviewer;
        return this;
    }

    /**
     * Posts {@code text} to the session and streams the turn it starts, from the event after {@code afterSeq}
     * (0 for a new session: its whole log is this turn). Gateway failures (409 busy, 404, unreachable, the stream
     * lost for good) leave as {@link GatewayException}.
     */
    public Result send(String sessionId, long afterSeq, String text) {
        return send(sessionId, afterSeq, text, List.of());
    }

    /** As {@link #send(String, long, String)}, with the workspace paths of images attached to the message. */
    public Result send(String sessionId, long afterSeq, String text, List<String> images) {
        this.images = List.copyOf(images);
        return stream(sessionId, afterSeq, List.of(), Map.of(), text);
    }

    /** The images of the message {@link #send} posts next. */
    private List<String> images = List.of();

    /**
     * Streams the rest of a turn that is under way, from the event after {@code afterSeq}: after chat decided an
     * approval. {@code awaiting} are the calls known to wait for approval still; {@code tools} names the tools of
     * the calls requested before (call id to tool).
     */
    public Result follow(String sessionId, long afterSeq, List<String> awaiting, Map<String, String> tools) {
        return stream(sessionId, afterSeq, awaiting, tools, null);
    }

    private Result stream(String sessionId, long afterSeq, List<String> awaiting, Map<String, String> tools,
                          String text) {
        TurnRenderer renderer = new TurnRenderer(printer, quiet, showReasoning);
        if (planReviewer != null) {
            renderer.reviewPlansWith(planReviewer);
        }
        if (pauseAtApprovals) {
            renderer.useChatHints();
        }
        if (text == null) {
            renderer.continueTurn(awaiting, tools);
        }
        SessionStream stream = new SessionStream(gateway, sessionId, afterSeq);
        Interrupt interrupt = new Interrupt(sessionId, stream);
        InterruptHook.Registration armed = interrupts.arm(interrupt::fire);
        try {
            // Open the stream before posting, so the first tokens are not streamed to nobody; the `after` seq
            // makes the order of the two irrelevant for the durable events.
            stream.connectAhead();
            if (text != null) {
                String inputId;
                try {
                    inputId = gateway.turns().postMessage(sessionId, text, images);
                    images = List.of();
                } catch (GatewayException e) {
                    stream.stop();
                    throw e;
                }
                renderer.expectInput(inputId);
            }
            Integer code = stream.follow(new SessionStream.Listener() {
                @Override
                public Integer onEvent(JsonNode envelope) {
                    Integer ended = renderer.onEvent(envelope);
                    if (ended == null && pauseAtApprovals && !renderer.pendingApprovals().isEmpty()
                            && !interrupt.fired()) {
                        return PAUSED; // the turn cannot go on until someone decides: give the prompt back
                    }
                    return ended;
                }

                @Override
                public void onDelta(JsonNode delta) {
                    renderer.onDelta(delta);
                }

                @Override
                public void onWarning(String message) {
                    renderer.onWarning(message);
                }
            });
            if (code != null && code == PAUSED) {
                return new Result(null, false, interrupt.presses(), stream.lastSeq());
            }
            return new Result(code, interrupt.fired(), interrupt.presses(), -1);
        } finally {
            armed.close();
            interrupt.done();
            stream.stop();
        }
    }

    /** What Ctrl-C does during one turn. */
    private final class Interrupt {
        private final String sessionId;
        private final SessionStream stream;
        private final CountDownLatch turnOver = new CountDownLatch(1);
        private final AtomicInteger presses = new AtomicInteger();
        private volatile boolean fired;

        Interrupt(String sessionId, SessionStream stream) {
            this.sessionId = sessionId;
            this.stream = stream;
        }

        boolean fired() {
            return fired;
        }

        int presses() {
            return presses.get();
        }

        void done() {
            turnOver.countDown();
        }

        /** Ctrl-C: ask the gateway to cancel the turn (bounded, best effort), then stop streaming, now or soon. */
        void fire() {
            presses.incrementAndGet();
            synchronized (this) {
                if (fired) {
                    stream.stop(); // a second Ctrl-C: stop waiting for the cancel to show
                    return;
                }
                fired = true;
            }
            boolean cancelled = false;
            try {
                gateway.turns().cancelQuickly(sessionId, CANCEL_TIMEOUT);
                printer.warn("interrupted; asked the gateway to cancel the turn of session " + sessionId);
                cancelled = true;
            } catch (GatewayException e) {
                printer.warn("interrupted; could not cancel the turn: " + e.getMessage());
            } finally {
                if (!cancelled || cancelGrace.isZero() || cancelGrace.isNegative()) {
                    stream.stop();
                } else {
                    waitForTheEnd();
                }
            }
        }

        /** Keeps streaming until the CANCELLED ending arrives, at most cancelGrace, without blocking the signal. */
        private void waitForTheEnd() {
            Thread waiter = new Thread(() -> {
                try {
                    if (!turnOver.await(cancelGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                        printer.warn("the gateway has not reported the end of the turn yet; session " + sessionId
                                + " may be busy for a moment");
                        stream.stop();
                    }
                } catch (InterruptedException e) {
                    stream.stop();
                }
            }, "agentbus-cancel-wait");
            waiter.setDaemon(true);
            waiter.start();
        }
    }
}
