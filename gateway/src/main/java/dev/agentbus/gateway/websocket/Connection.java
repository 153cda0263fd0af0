package dev.agentbus.gateway.websocket;

import io.micronaut.http.HttpRequest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * One client's WebSocket connection: joins its fragments into messages, reads them into commands, and runs each
 * command on a virtual thread of its own, so a long command (a chat turn, a command line) does not hold up the next
 * one and the connection's I/O thread never waits. Every reply carries the command's id.
 *
 * <ul>
 *   <li>A message over its limit is answered with an error and the connection is closed with 1009 (message too
 *       big): nothing of it reaches a command.</li>
 *   <li>A message that is not a command is answered with an error; the connection stays open.</li>
 *   <li>At most {@link #MAX_IN_FLIGHT} commands run at once; more are refused with {@code too_many_requests}.</li>
 *   <li>Commands wait until the connection's session is ready; closing the connection stops what still runs
 *       (what was already sent to the session stays recorded and goes on there).</li>
 * </ul>
 */
final class Connection {
    static final int MAX_IN_FLIGHT = 16;
    static final int MESSAGE_TOO_BIG = 1009;
    /** The credential that opened the connection was revoked, or the login ended (docs/websocket.md). */
    static final int UNAUTHORIZED = 4401;
    private static final Duration SESSION_WAIT = Duration.ofSeconds(30);

    private final String userId;
    private final HttpRequest<?> request;
    private final Outbox outbox;
    private final MessageAssembler assembler;
    private final CommandDispatcher dispatcher;
    private final BooleanSupplier credentialLive;
    private final CompletableFuture<String> session = new CompletableFuture<>();
    private final Semaphore slots = new Semaphore(MAX_IN_FLIGHT);
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final List<Runnable> onClose = new ArrayList<>();
    private volatile boolean closed;

    Connection(String userId, HttpRequest<?> request, Outbox outbox, MessageAssembler assembler,
               CommandDispatcher dispatcher) {
        this(userId, request, outbox, assembler, dispatcher, () -> true);
    }

    /** @param credentialLive asked before each command: whether the key or login that opened it still holds */
    Connection(String userId, HttpRequest<?> request, Outbox outbox, MessageAssembler assembler,
               CommandDispatcher dispatcher, BooleanSupplier credentialLive) {
        this.credentialLive = credentialLive;
        this.userId = userId;
        this.request = request;
        this.outbox = outbox;
        this.assembler = assembler;
        this.dispatcher = dispatcher;
    }

    String userId() {
        return userId;
    }

    HttpRequest<?> request() {
        return request;
    }

    Outbox outbox() {
        return outbox;
    }

    /** The session is known (found or created): commands may run in it. */
    void ready(String sessionId) {
        session.complete(sessionId);
    }

    /** Runs when the connection closes: a subscription to end, for example. */
    void onClose(Runnable cleanup) {
        synchronized (onClose) {
            if (!closed) {
                onClose.add(cleanup);
                return;
            }
        }
        cleanup.run();
    }

    /** A frame as it came off the wire; called by one thread at a time. */
    void onFrame(MessageAssembler.Kind kind, boolean last, byte[] data) {
        if (closed) {
            return;
        }
        switch (assembler.accept(kind, last, data)) {
            case MessageAssembler.Result.Partial p -> {
                // wait for the rest
            }
            case MessageAssembler.Result.TooLarge big -> {
                String what = big.kind() == MessageAssembler.Kind.TEXT ? "text messages" : "binary messages (an "
                        + "upload with its header)";
                outbox.send(new Reply.Failure(null, null, "request_entity_too_large", "the message is at least "
                        + big.atLeast() + " bytes; " + what + " are at most " + big.limit() + " bytes, so it was "
                        + "dropped unread and the connection is closed (1009)"));
                outbox.close(MESSAGE_TOO_BIG, "message too big: at most " + big.limit() + " bytes");
            }
            case MessageAssembler.Result.Complete whole -> run(whole.kind() == MessageAssembler.Kind.TEXT
                    ? Frames.text(new String(whole.bytes(), StandardCharsets.UTF_8))
                    : Frames.binary(whole.bytes()));
        }
    }

    private void run(Frame frame) {
        switch (frame) {
            case Frame.Malformed bad -> outbox.send(new Reply.Failure(bad.id(), bad.command(), "bad_request",
                    bad.message()));
            case Frame.Command command -> {
                if (!slots.tryAcquire()) {
                    outbox.send(new Reply.Failure(command.id(), command.name(), "too_many_requests", "at most "
                            + MAX_IN_FLIGHT + " commands run at once on one connection; wait for an answer"));
                    return;
                }
                Thread.ofVirtual().name("ws-" + command.name()).start(() -> {
                    running.add(Thread.currentThread());
                    try {
                        if (!closed) {
                            Reply reply = execute(command);
                            if (reply != null && !closed) {
                                outbox.send(reply);
                            }
                        }
                    } finally {
                        running.remove(Thread.currentThread());
                        slots.release();
                    }
                });
            }
        }
    }

    private Reply execute(Frame.Command command) {
        try {
            String sessionId = session.get(SESSION_WAIT.toSeconds(), TimeUnit.SECONDS);
            try {
                if (!credentialLive.getAsBoolean()) {
                    revoked();
                    return null;
                }
            } catch (RuntimeException e) {
                // The database is away: refuse this command rather than run it unchecked.
                return new Reply.Failure(command.id(), command.name(), "service_unavailable",
                        "cannot check this connection's credential now; try again");
            }
            return dispatcher.dispatch(new Call(command, userId, sessionId, request, outbox));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null; // the connection closed
        } catch (ExecutionException | TimeoutException e) {
            return new Reply.Failure(command.id(), command.name(), "service_unavailable",
                    "the connection has no session to run the command in");
        }
    }

    /** The credential was taken away: say so, close with 4401 and stop what still runs. */
    void revoked() {
        if (closed) {
            return;
        }
        outbox.send(new Reply.Failure(null, null, "unauthorized", "the API key or login this connection was opened "
                + "with was revoked or has ended; connect again with a valid one"));
        outbox.close(UNAUTHORIZED, "credential revoked");
        close();
    }

    /** The client went away or the connection was closed: stop what still runs here. */
    void close() {
        List<Runnable> cleanups;
        synchronized (onClose) {
            if (closed) {
                return;
            }
            closed = true;
            cleanups = List.copyOf(onClose);
            onClose.clear();
        }
        session.completeExceptionally(new IllegalStateException("closed"));
        running.forEach(Thread::interrupt);
        cleanups.forEach(Runnable::run);
    }
}
