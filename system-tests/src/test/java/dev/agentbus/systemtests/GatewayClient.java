package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.testkit.Poll;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** A small HTTP client for the gateway's API, as a test sees it: raw statuses and JSON, nothing hidden. */
final class GatewayClient {
    record Response(int status, String body, Map<String, List<String>> headers) {
        JsonNode json() {
            try {
                return Json.mapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    /** One Server-Sent Event as it came over the wire. */
    record Sse(String event, String id, String data) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String token;

    GatewayClient(String baseUrl, String token) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
    }

    Response get(String path) {
        return send(request(path).GET().build());
    }

    /** Waits until the gateway answers {@code /health} with 200 (it listens, and Kafka answers it). */
    void awaitHealthy(Duration timeout) throws InterruptedException {
        Poll.until("the gateway to be healthy", timeout, () -> {
            try {
                return get("/health").status() == 200;
            } catch (AssertionError notListeningYet) {
                return false;
            }
        });
    }

    Response post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    Response send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers().map());
        } catch (IOException e) {
            throw new AssertionError("gateway did not answer " + request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
    }

    String createSession(String title) {
        Response r = post("/api/v1/sessions", "{\"title\":\"" + title + "\"}");
        if (r.status() != 201) {
            throw new AssertionError("create session: " + r.status() + " " + r.body());
        }
        return r.json().get("id").asText();
    }

    void postMessage(String sessionId, String text) {
        Response r = post("/api/v1/sessions/" + sessionId + "/messages",
                Json.mapper().createObjectNode().put("text", text).toString());
        if (r.status() != 202) {
            throw new AssertionError("post message: " + r.status() + " " + r.body());
        }
    }

    List<EventEnvelope> log(String sessionId) {
        Response r = get("/api/v1/sessions/" + sessionId + "/log");
        if (r.status() != 200) {
            throw new AssertionError("log: " + r.status() + " " + r.body());
        }
        return Arrays.stream(r.body().split("\n")).filter(l -> !l.isBlank()).map(EventCodec::decodeEvent).toList();
    }

    /** Polls the log until an event matches, or fails after the timeout with the log so far. */
    List<EventEnvelope> awaitLog(String sessionId, Predicate<EventEnvelope> until, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<EventEnvelope> log = List.of();
        while (System.nanoTime() < deadline) {
            try {
                log = log(sessionId);
                if (log.stream().anyMatch(until)) {
                    return log;
                }
            } catch (AssertionError notYet) {
                // the gateway may be restarting
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out; log so far:\n" + String.join("\n",
                log.stream().map(EventCodec::eventToJson).toList()));
    }

    /**
     * Reads the session's SSE stream until an event satisfies {@code until} (inclusive) or the timeout passes.
     * {@code lastEventId} is sent as Last-Event-ID when not null.
     */
    List<Sse> sse(String sessionId, String lastEventId, Predicate<Sse> until, Duration timeout) throws Exception {
        return sseAt("/api/v1/sessions/" + sessionId + "/events", lastEventId, until, timeout);
    }

    /** Like {@link #sse} for any SSE route, such as the caller's notifications. */
    List<Sse> sseAt(String path, String lastEventId, Predicate<Sse> until, Duration timeout) throws Exception {
        HttpRequest.Builder b = request(path).timeout(timeout)
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) {
            throw new AssertionError("sse: HTTP " + r.statusCode());
        }
        List<Sse> out = new ArrayList<>();
        String event = null;
        String id = null;
        StringBuilder data = new StringBuilder();
        try (Stream<String> lines = r.body()) {
            var it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (line.isEmpty()) {
                    if (event != null || data.length() > 0) {
                        Sse sse = new Sse(event, id, data.toString());
                        out.add(sse);
                        if (until.test(sse)) {
                            return out;
                        }
                    }
                    event = null;
                    id = null;
                    data.setLength(0);
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).trim();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("data:")) {
                    if (data.length() > 0) {
                        data.append('\n');
                    }
                    data.append(line.substring(5).startsWith(" ") ? line.substring(6) : line.substring(5));
                }
            }
        }
        return out;
    }
}
