package dev.agentbus.gateway.websocket;

import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link Outbox} of a real connection: replies go out as text messages, and closing follows the WebSocket
 * closing handshake (RFC 6455, 7.1.1) instead of dropping the TCP connection at once.
 *
 * <p>Why: when a message is over its limit the client is often still sending the rest of it. Micronaut's
 * {@code close} ends the TCP connection as soon as the Close frame is written; the client's bytes still arriving then
 * make the kernel reset the connection, and a reset throws away what the client had not read yet, which is our
 * error message and the close code. So the Close frame is sent alone, the rest of the message is read and dropped
 * (see {@link MessageAssembler}), the client answers with its own Close, and Micronaut ends the connection then.
 * A client that never answers is cut off after {@link #CLOSE_GRACE_SECONDS}.
 */
final class SocketOutbox implements Outbox {
    static final int CLOSE_GRACE_SECONDS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(SocketOutbox.class);

    private final WebSocketSession socket;
    /** Nothing may follow a Close frame. */
    private volatile boolean closing;

    SocketOutbox(WebSocketSession socket) {
        this.socket = socket;
    }

    @Override
    public void send(Reply reply) {
        if (!closing && socket.isOpen()) {
            socket.sendAsync(reply.json()).whenComplete((sent, failed) -> {
                if (failed != null) {
                    LOG.debug("WebSocket {}: a message could not be sent: {}", socket.getId(), failed.toString());
                }
            });
        }
    }

    @Override
    public synchronized void close(int code, String reason) {
        if (closing || !socket.isOpen()) {
            return;
        }
        closing = true;
        String shortReason = truncated(reason);
        // A frame object is written as it is, without closing the channel (Micronaut's close would).
        socket.sendAsync(new CloseWebSocketFrame(code, shortReason));
        CompletableFuture.delayedExecutor(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS).execute(() -> {
            if (socket.isOpen()) {
                socket.close(new CloseReason(code, shortReason));
            }
        });
    }

    /** A close reason is at most 123 bytes of UTF-8. */
    static String truncated(String reason) {
        String cut = reason;
        while (cut.getBytes(StandardCharsets.UTF_8).length > 123) {
            cut = cut.substring(0, cut.offsetByCodePoints(cut.length(), -1));
        }
        return cut;
    }
}
