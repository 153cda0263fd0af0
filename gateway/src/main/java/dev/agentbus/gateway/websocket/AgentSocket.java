package dev.agentbus.gateway.websocket;

import dev.agentbus.gateway.notifying.NotificationFeed;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.gateway.auth.Authenticator;
import dev.agentbus.gateway.auth.Caller;
import dev.agentbus.gateway.auth.Callers;
import dev.agentbus.gateway.auth.OpenConnections;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.files.FileTransferSettings;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.http.HttpRequest;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnError;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.util.Locale;

/**
 * {@code /ws}: OS-Agent's WebSocket API over Agentbus (docs/websocket.md). The upgrade request passes the
 * gateway's authentication filter like any request, so a connection without a valid API key or browser login is
 * refused with 401 before it is one; each command then becomes an input on the bus as its HTTP twin does.
 *
 * <p>This class only adapts Micronaut's WebSocket to a {@link Connection}: it takes frames as they arrive
 * (unjoined, so {@link MessageAssembler} holds each message to its limit before any of it is kept), finds or makes
 * the connection's session, and closes what is left when the client goes.
 */
@ServerWebSocket("/ws")
class AgentSocket {
    /**
     * The largest single frame the WebSocket codec reads; a larger one is refused by the codec itself, with close
     * code 1009 and no JSON answer. The configured limits below it are checked per message, with an answer.
     */
    static final int FRAME_CAP = 8 * 1024 * 1024;
    static final int SESSION_NOT_FOUND = 4404;
    static final int FORBIDDEN = 4403;
    static final int UNAVAILABLE = 1011;
    private static final String CONNECTION = "agentbus.connection";
    private static final Logger LOG = LoggerFactory.getLogger(AgentSocket.class);

    private final SocketSessions sessions;
    private final CommandDispatcher dispatcher;
    private final long maxTextBytes;
    private final long maxUploadBytes;
    private final NotificationFeed notifications;
    private final OpenConnections connections;
    private final Authenticator authenticator;

    AgentSocket(SocketSessions sessions, WebSocketCommands commands, WebSocketSettings settings,
                FileTransferSettings files, NotificationFeed notifications, OpenConnections connections,
                Authenticator authenticator) {
        this.notifications = notifications;
        this.connections = connections;
        this.authenticator = authenticator;
        this.sessions = sessions;
        this.dispatcher = commands.dispatcher();
        this.maxTextBytes = settings.maxTextBytes();
        this.maxUploadBytes = files.maxBytes();
    }

    @OnOpen
    public void onOpen(WebSocketSession socket, HttpRequest<?> request) {
        Caller caller = Callers.callerOf(request);
        Outbox outbox = new SocketOutbox(socket);
        if (caller.via() == Caller.Via.LOGIN && !sameOrigin(request)) {
            // A browser sends its login cookie with a WebSocket handshake from any page; only our own pages may use it.
            outbox.send(new Reply.Failure(null, null, "forbidden", "a browser login may open /ws only from a page "
                    + "of this gateway (the Origin header names another site)"));
            outbox.close(FORBIDDEN, "cross-origin WebSocket refused");
            return;
        }
        Connection connection = new Connection(caller.userId(), request, outbox,
                new MessageAssembler(maxTextBytes, 4L + Frames.MAX_HEADER_BYTES + maxUploadBytes), dispatcher,
                () -> authenticator.stillValid(caller));
        socket.put(CONNECTION, connection);
        // Revoking the key or ending the login closes this connection at once (4401), not at its next command.
        connection.onClose(connections.register(caller, connection::revoked));
        String wanted = request.getParameters().get("session");
        // Finding or creating the session may wait for Kafka and the orchestrator: not on the I/O thread.
        Thread.ofVirtual().name("ws-open").start(() -> open(connection, wanted));
    }

    private void open(Connection connection, String wanted) {
        try {
            SessionState session = sessions.open(wanted, connection.userId(), connection.request());
            Runnable unfollow = sessions.followNotifications(session.sessionId(), session.lastSeq(),
                    connection.outbox()::send);
            connection.onClose(unfollow);
            connection.outbox().send(new Reply.Ready(session.sessionId(), connection.userId(), maxTextBytes,
                    maxUploadBytes, dispatcher.commands()));
            connection.ready(session.sessionId());
            // After ready, which a client reads first: the user's own notifications, from every session of theirs.
            connection.onClose(notifications.follow(connection.userId(),
                    item -> connection.outbox().send(new Reply.UserNotification(item))));
        } catch (ApiException e) {
            connection.outbox().send(new Reply.Failure(null, null, e.status().name().toLowerCase(), e.getMessage()));
            connection.outbox().close(e.status().getCode() == 404 ? SESSION_NOT_FOUND
                    : e.status().getCode() == 403 ? FORBIDDEN : UNAVAILABLE, e.status().getReason());
        } catch (InputSender.KafkaUnavailableException e) {
            connection.outbox().send(new Reply.Failure(null, null, "service_unavailable", e.getMessage()));
            connection.outbox().close(UNAVAILABLE, "Kafka is not reachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Frames as they come, fragments included: Micronaut hands a {@link WebSocketFrame} over without joining
     * fragments, so no message is buffered past its limit. The frame is ours to release.
     */
    @OnMessage(maxPayloadLength = FRAME_CAP)
    public void onMessage(WebSocketFrame frame, WebSocketSession socket) {
        try {
            Connection connection = socket.get(CONNECTION, Connection.class).orElse(null);
            MessageAssembler.Kind kind = switch (frame) {
                case TextWebSocketFrame t -> MessageAssembler.Kind.TEXT;
                case BinaryWebSocketFrame b -> MessageAssembler.Kind.BINARY;
                case ContinuationWebSocketFrame c -> MessageAssembler.Kind.CONTINUATION;
                default -> null;
            };
            if (connection != null && kind != null) {
                connection.onFrame(kind, frame.isFinalFragment(), ByteBufUtil.getBytes(frame.content()));
            }
        } finally {
            frame.release();
        }
    }

    @OnClose
    public void onClose(WebSocketSession socket) {
        socket.get(CONNECTION, Connection.class).ifPresent(Connection::close);
    }

    @OnError
    public void onError(WebSocketSession socket, Throwable error) {
        LOG.warn("WebSocket {} failed: {}", socket.getId(), error.toString(), error);
        socket.get(CONNECTION, Connection.class).ifPresent(Connection::close);
    }

    /**
     * Whether the request's Origin (sent by every browser) names this gateway's own host. Ports are not compared: a
     * TLS proxy in front commonly passes the host without the port.
     */
    static boolean sameOrigin(HttpRequest<?> request) {
        String origin = request.getHeaders().getOrigin().orElse(null);
        if (origin == null) {
            return true; // not a browser; the cookie alone proves the login
        }
        String host = request.getHeaders().get("Host");
        try {
            String originHost = URI.create(origin).getHost();
            String ownHost = host == null ? null : URI.create("http://" + host).getHost();
            return originHost != null && ownHost != null
                    && originHost.toLowerCase(Locale.ROOT).equals(ownHost.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
