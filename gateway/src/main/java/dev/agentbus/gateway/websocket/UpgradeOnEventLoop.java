package dev.agentbus.gateway.websocket;

import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.server.netty.NettyHttpRequest;

import java.util.concurrent.CompletableFuture;

/**
 * Runs the end of a {@code /ws} upgrade on the connection's own event loop: the last filter, it hands the request
 * back to that loop before Micronaut writes the handshake answer and installs the WebSocket handler.
 *
 * <p>Why: authentication runs on a blocking thread (it may read the database), and Micronaut 4.10.15 then writes the
 * handshake answer and swaps the connection's handlers from that thread. A client that sends a frame as soon as it
 * has the answer (our {@code ready} comes right after it) can then be read by the HTTP handlers that are still
 * installed: the frame is lost with a ClassCastException in the log, and the client waits for an answer forever.
 * Under CPU load this happened in about one connection in a hundred. Micronaut fixed it upstream
 * (micronaut-core pull request 12528, in a version not available here); drop this filter once the gateway runs on it.
 *
 * <p>The hand-back must complete only once Micronaut waits for it ({@link EventLoopHandBack}): a future the loop
 * completed a moment earlier is taken as done, and Micronaut then goes on in the blocking thread after all. That
 * race lost the first frame about once in a few thousand connections on a loaded 2-core machine.
 */
@ServerFilter({"/ws", "/ws/**"})
@Order(Ordered.LOWEST_PRECEDENCE)
class UpgradeOnEventLoop {

    @RequestFilter
    public CompletableFuture<HttpRequest<?>> onEventLoop(HttpRequest<?> request) {
        // The same request, unchanged; what matters is the thread that completes the future.
        if (request instanceof NettyHttpRequest<?> netty) {
            return EventLoopHandBack.to(netty.getChannelHandlerContext().executor(), request);
        }
        return CompletableFuture.completedFuture(request);
    }
}
