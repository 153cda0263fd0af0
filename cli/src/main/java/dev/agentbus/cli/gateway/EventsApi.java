package dev.agentbus.cli.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Opening a session's live event stream (GET /api/v1/sessions/{id}/events, server-sent events). Only
 * {@link SessionStream} uses it: it owns reconnecting, resuming and the silence watchdog; this class only opens one
 * connection and turns a refusal into a {@link GatewayException}.
 */
final class EventsApi {
    private final GatewayHttp http;

    EventsApi(GatewayHttp http) {
        this.http = http;
    }

    /**
     * Starts GET /api/v1/sessions/{id}/events?after=N without waiting for the response, so the caller can post a
     * message while the stream is being opened (and lose as few token deltas as possible). With {@code resume} the
     * request also carries {@code Last-Event-ID: N}, the standard SSE reconnect header.
     */
    CompletableFuture<HttpResponse<InputStream>> open(String sessionId, long after, boolean resume) {
        // No request timeout: the stream never ends by itself; SessionStream's watchdog handles silence.
        HttpRequest.Builder b = http.request(GatewayHttp.sessionPath(sessionId) + "/events?after=" + after, null)
                .header("Accept", "text/event-stream")
                .header("Cache-Control", "no-cache")
                .GET();
        if (resume) {
            b.header("Last-Event-ID", Long.toString(after));
        }
        return http.sendStreaming(b.build());
    }

    /** Waits for a stream opened by {@link #open} and checks its status. */
    SseConnection await(CompletableFuture<HttpResponse<InputStream>> pending, String sessionId)
            throws InterruptedException {
        HttpResponse<InputStream> response;
        try {
            response = pending.get();
        } catch (ExecutionException e) {
            throw GatewayException.unreachable(http.baseUrl(), unwrap(e));
        } catch (CancellationException e) {
            // SessionStream.stop() cancelled the connection attempt; the caller sees that it was stopped.
            throw GatewayException.unreachable(http.baseUrl(), e);
        }
        if (response.statusCode() / 100 != 2) {
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                body = "";
            }
            throw http.failure(response.statusCode(), body, sessionId);
        }
        return new SseConnection(response.body());
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
