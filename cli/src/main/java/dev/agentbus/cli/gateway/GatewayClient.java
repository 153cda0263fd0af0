package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.AcceptedInput;
import dev.agentbus.api.ApiError;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.CreatedSession;
import dev.agentbus.api.ForkedSession;
import dev.agentbus.api.Memory;
import dev.agentbus.api.Rewound;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

/**
 * The gateway's HTTP API (/api/v1), and nothing else: every call the CLI makes is a method here, every answer is
 * read into its record of the api module (the contract the gateway writes), and every failure leaves as a
 * {@link GatewayException} worded for a person. Uses the JDK's HttpClient on purpose: the CLI jar should
 * stay small and start fast, and HTTP/1.1 plus a streamed body is all SSE needs.
 */
public final class GatewayClient {
    private static final ObjectMapper JSON = Json.mapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String baseUrl;
    private final String token;
    private final HttpClient http;

    public GatewayClient(String baseUrl, String token) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.http = HttpClient.newBuilder()
                // HTTP/1.1 explicitly: the default would try an h2c upgrade on every plain-http request, which some
                // proxies and servers handle badly, and buys nothing for a long-lived event stream.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    public String baseUrl() {
        return baseUrl;
    }

    /**
     * POST /api/v1/sessions. {@link CreatedSession#isPending()}: the gateway has the request durably but no
     * orchestrator has recorded session.created yet (it answers 202 instead of 201 after waiting 10 s); until one
     * does, the session is 404.
     */
    public CreatedSession createSession(String title) {
        return createSession(title, null, false);
    }

    /** POST /api/v1/sessions; {@code planFirst}: plan-first mode (tools wait for a plan the user approved). */
    public CreatedSession createSession(String title, boolean planFirst) {
        return createSession(title, null, planFirst);
    }

    /**
     * POST /api/v1/sessions with a permission mode ({@code auto}, {@code normal}, {@code manual}; null: the default)
     * and, when {@code planFirst}, in plan-first mode.
     */
    public CreatedSession createSession(String title, String mode, boolean planFirst) {
        return createSession(title, mode, planFirst, null);
    }

    /** As {@link #createSession(String, String, boolean)}, with the session's own model (null: the default). */
    public CreatedSession createSession(String title, String mode, boolean planFirst, String model) {
        ObjectNode body = JSON.createObjectNode().put("title", title);
        if (model != null) {
            body.put("model", model);
        }
        if (mode != null) {
            body.put("mode", mode);
        }
        if (planFirst) {
            body.put("planFirst", true);
        }
        CreatedSession answer = read(send(post("/api/v1/sessions", body), null), CreatedSession.class);
        if (answer.id() == null || answer.id().isBlank()) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 0,
                    "the gateway created a session but did not say its id");
        }
        return answer;
    }

    /** POST /api/v1/sessions/{id}/messages; returns the input id (null if the gateway did not say). */
    public String postMessage(String sessionId, String text) {
        return postMessage(sessionId, text, List.of());
    }

    /** As {@link #postMessage(String, String)}, with the workspace paths of images to show the model. */
    public String postMessage(String sessionId, String text, List<String> images) {
        ObjectNode body = JSON.createObjectNode().put("text", text);
        if (!images.isEmpty()) {
            images.forEach(body.putArray("images")::add);
        }
        HttpResponse<String> response = send(post(sessionPath(sessionId) + "/messages", body), sessionId);
        return response.body() == null || response.body().isBlank() ? null
                : read(response, AcceptedInput.class).inputId();
    }

    /** PUT /api/v1/sessions/{id}/files/{path}: writes {@code content} to {@code path} in the session's workspace. */
    public void upload(String sessionId, String path, byte[] content) {
        StringBuilder encoded = new StringBuilder();
        for (String part : path.split("/")) {
            encoded.append('/').append(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        send(request(sessionPath(sessionId) + "/files" + encoded).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)).build(), sessionId);
    }

    /** POST /api/v1/sessions/{id}/cancel. */
    public void cancel(String sessionId) {
        send(post(sessionPath(sessionId) + "/cancel", null), sessionId);
    }

    /** DELETE /api/v1/sessions/{id}: only the owner may; a running turn is cancelled first. */
    public void delete(String sessionId) {
        send(request(sessionPath(sessionId)).DELETE().build(), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/approvals/{callId}: {@code decision} is approve, deny or always; {@code note} may be
     * null. A call that is not pending answers 409 ({@link GatewayException.Kind#CONFLICT}).
     */
    public void decideApproval(String sessionId, String callId, String decision, String note) {
        ObjectNode body = JSON.createObjectNode().put("decision", decision);
        if (note != null) {
            body.put("note", note);
        }
        send(post(sessionPath(sessionId) + "/approvals/"
                + java.net.URLEncoder.encode(callId, StandardCharsets.UTF_8).replace("+", "%20"), body), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/plan/decision: {@code decision} is approve or reject; {@code note} may be null (on a
     * rejection the model reads it). 409 when no plan waits for approval.
     */
    public void decidePlan(String sessionId, String decision, String note) {
        ObjectNode body = JSON.createObjectNode().put("decision", decision);
        if (note != null) {
            body.put("note", note);
        }
        send(post(sessionPath(sessionId) + "/plan/decision", body), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/whisper: a note for the running turn's next model call. A session with no turn under
     * way answers 409 ({@link GatewayException.Kind#CONFLICT}).
     */
    public void whisper(String sessionId, String text) {
        send(post(sessionPath(sessionId) + "/whisper", JSON.createObjectNode().put("text", text)), sessionId);
    }

    /** PUT /api/v1/sessions/{id}/title. */
    public void rename(String sessionId, String title) {
        ObjectNode body = JSON.createObjectNode().put("title", title);
        send(request(sessionPath(sessionId) + "/title").header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build(), sessionId);
    }

    /** PUT /api/v1/sessions/{id}/mode: auto, normal or manual. */
    public void setPermissionMode(String sessionId, String mode) {
        ObjectNode body = JSON.createObjectNode().put("mode", mode);
        send(request(sessionPath(sessionId) + "/mode").header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build(), sessionId);
    }

    /** Like {@link #cancel} but bounded in time: used from the Ctrl-C hook, which must not hang the exit. */
    public void cancelQuickly(String sessionId, Duration timeout) {
        HttpRequest request = request(sessionPath(sessionId) + "/cancel").timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        send(request, sessionId);
    }

    /**
     * POST /api/v1/inbox: queues a task that starts in a new session at {@code at} (an ISO-8601 time with a zone;
     * null: now). Bad input answers 400 ({@link GatewayException}) with the gateway's reason.
     */
    public dev.agentbus.api.inbox.InboxItem submitTask(String text, String at, String title) {
        ObjectNode body = JSON.createObjectNode().put("text", text);
        if (at != null) {
            body.put("at", at);
        }
        if (title != null) {
            body.put("title", title);
        }
        return read(send(post("/api/v1/inbox", body), null), dev.agentbus.api.inbox.InboxItem.class);
    }

    /** GET /api/v1/inbox: the caller's queued and started tasks, newest first. */
    public List<dev.agentbus.api.inbox.InboxItem> inbox() {
        HttpResponse<String> response = send(request("/api/v1/inbox").header("Accept", "application/json").GET()
                .build(), null);
        try {
            return JSON.readValue(response.body(), JSON.getTypeFactory().constructCollectionType(List.class,
                    dev.agentbus.api.inbox.InboxItem.class));
        } catch (java.io.IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway's inbox is not the expected JSON: " + e.getMessage());
        }
    }

    /** DELETE /api/v1/inbox/{id}: 404 when there is no such task, 409 when it has started. */
    public void cancelTask(String id) {
        send(request("/api/v1/inbox/" + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20"))
                .header("Accept", "application/json").DELETE().build(), null);
    }

    /** GET /api/v1/sessions, the raw JSON (a list of {@code SessionListEntry}). */
    public String listSessions() {
        return send(request("/api/v1/sessions").GET().build(), null).body();
    }

    /** GET /api/v1/sessions/{id}: the session's {@code SessionDetails}, raw JSON. */
    public String session(String sessionId) {
        return send(request(sessionPath(sessionId)).GET().build(), sessionId).body();
    }

    /** GET /api/v1/sessions/{id}/planning: the session's plan, todos and task state, and whether it is plan-first. */
    public dev.agentbus.api.PlanningView planning(String sessionId) {
        return read(send(request(sessionPath(sessionId) + "/planning").header("Accept", "application/json").GET()
                .build(), sessionId), dev.agentbus.api.PlanningView.class);
    }

    /**
     * POST /api/v1/sessions/{id}/compact: asks for the older conversation to be summarised now; returns the input id
     * (null if the gateway did not say). 409 ({@link GatewayException.Kind#CONFLICT}) while a turn is under way or a
     * summary is being written, with the gateway's reason.
     */
    public String compact(String sessionId) {
        HttpResponse<String> response = send(post(sessionPath(sessionId) + "/compact", null), sessionId);
        return response.body() == null || response.body().isBlank() ? null
                : read(response, AcceptedInput.class).inputId();
    }

    /** GET /api/v1/me/notifications: the caller's notifications, unread first, newest first; 503 without a database. */
    public dev.agentbus.api.notifying.NotificationList notifications(int limit) {
        return read(send(request("/api/v1/me/notifications?limit=" + limit).header("Accept", "application/json")
                .GET().build(), null), dev.agentbus.api.notifying.NotificationList.class);
    }

    /** POST /api/v1/me/notifications/read: marks the caller's notifications up to this id read; returns how many are unread. */
    public long markNotificationsRead(long upTo) {
        return json(send(post("/api/v1/me/notifications/read", JSON.createObjectNode().put("upTo", upTo)), null))
                .path("unread").asLong();
    }

    /** GET /api/v1/models: the models the caller's model server (their own, else the team's) lists. */
    public dev.agentbus.api.accounts.ModelList models() {
        return read(send(request("/api/v1/models").header("Accept", "application/json").GET().build(), null),
                dev.agentbus.api.accounts.ModelList.class);
    }

    /**
     * GET /api/v1/search: the caller's messages matching {@code query}; {@code mode} null lets the gateway choose
     * (hybrid when it has an embedding model, else text).
     */
    public dev.agentbus.api.SearchResults search(String query, String mode, int limit) {
        String path = "/api/v1/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&limit=" + limit
                + (mode == null ? "" : "&mode=" + URLEncoder.encode(mode, StandardCharsets.UTF_8));
        return read(send(request(path).header("Accept", "application/json").GET().build(), null),
                dev.agentbus.api.SearchResults.class);
    }

    /** GET /api/v1/memory: the caller's memory document. */
    public Memory memory() {
        return read(send(request("/api/v1/memory").header("Accept", "application/json").GET().build(), null),
                Memory.class);
    }

    /** PUT /api/v1/memory: replaces the memory document; answers the new document once it is applied. */
    public Memory setMemory(String content) {
        ObjectNode body = JSON.createObjectNode().put("content", content);
        HttpRequest request = request("/api/v1/memory").header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        return read(send(request, null), Memory.class);
    }

    /** DELETE /api/v1/memory: empties the memory document; answers the new, empty document. */
    public Memory resetMemory() {
        return read(send(request("/api/v1/memory").header("Accept", "application/json").DELETE().build(), null),
                Memory.class);
    }

    /** POST /api/v1/admin/rebuild-projections: empties the read models and starts a run from offset 0 (202). */
    public JsonNode rebuildProjections() {
        return json(send(post("/api/v1/admin/rebuild-projections", null), null));
    }

    /** GET /api/v1/admin/rebuild-projections: the latest projection run and how far it is. */
    public JsonNode projectionStatus() {
        return json(send(request("/api/v1/admin/rebuild-projections").header("Accept", "application/json")
                .GET().build(), null));
    }

    /** POST /api/v1/admin/rebuild-memory: asks for a rebuild of one user's insights, or every user's (null). */
    public JsonNode rebuildMemory(String user) {
        com.fasterxml.jackson.databind.node.ObjectNode body = com.fasterxml.jackson.databind.node.JsonNodeFactory
                .instance.objectNode();
        if (user != null) {
            body.put("user", user);
        }
        return json(send(post("/api/v1/admin/rebuild-memory", body), null));
    }

    /** GET /api/v1/admin/rebuild-memory/{rebuildId}: the users whose insights the rebuild replaced so far. */
    public JsonNode memoryRebuildStatus(String rebuildId) {
        return json(send(request("/api/v1/admin/rebuild-memory/" + rebuildId).header("Accept", "application/json")
                .GET().build(), null));
    }

    /** GET /api/v1/sessions/{id}/log: one event envelope JSON per line, blank lines dropped. */
    public List<String> log(String sessionId) {
        String body = send(request(sessionPath(sessionId) + "/log").header("Accept", "application/x-ndjson")
                .GET().build(), sessionId).body();
        return body == null ? List.of() : body.lines().filter(l -> !l.isBlank()).toList();
    }

    // ---- transfer: export, import, fork, rewind (docs/replay-and-fork.md) ------------------------------------------

    /**
     * An answer that creates or changes something, with whether the gateway finished it ({@code 201}/{@code 200})
     * or only has it durably and is still waiting ({@code 202}, {@code "status":"pending"}).
     */
    public record Accepted<T>(T body, boolean pending) {
    }

    /** GET /api/v1/sessions/{id}/export: the log as JSON Lines, exactly as the gateway sent it. */
    public String exportLog(String sessionId) {
        return send(request(sessionPath(sessionId) + "/export").header("Accept", "application/x-ndjson")
                .GET().build(), sessionId).body();
    }

    /** POST /api/v1/sessions/import with a JSON Lines body: a new session from an exported log. */
    public Accepted<ForkedSession> importLog(String jsonl, String title) {
        String query = title == null ? "" : "?title=" + URLEncoder.encode(title, StandardCharsets.UTF_8);
        HttpRequest request = request("/api/v1/sessions/import" + query).header("Accept", "application/json")
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(jsonl, StandardCharsets.UTF_8)).build();
        return accepted(send(request, null), ForkedSession.class, ForkedSession::isPending);
    }

    /** POST /api/v1/sessions/{id}/fork: a new session from the state of this one at atSeq. */
    public Accepted<ForkedSession> fork(String sessionId, long atSeq, String title) {
        ObjectNode body = JSON.createObjectNode().put("atSeq", atSeq);
        if (title != null) {
            body.put("title", title);
        }
        return accepted(send(post(sessionPath(sessionId) + "/fork", body), sessionId), ForkedSession.class,
                ForkedSession::isPending);
    }

    /** POST /api/v1/sessions/{id}/rewind: restores the workspace to a checkpoint; waits for the result. */
    public Accepted<Rewound> rewind(String sessionId, String checkpoint) {
        ObjectNode body = JSON.createObjectNode().put("checkpoint", checkpoint);
        HttpRequest request = request(sessionPath(sessionId) + "/rewind", Duration.ofSeconds(90))
                .header("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        return accepted(send(request, sessionId), Rewound.class, Rewound::isPending);
    }

    private static <T> Accepted<T> accepted(HttpResponse<String> response, Class<T> type, Predicate<T> saysPending) {
        T body = read(response, type);
        return new Accepted<>(body, response.statusCode() == 202 || saysPending.test(body));
    }

    /**
     * Starts GET /api/v1/sessions/{id}/events?after=N without waiting for the response, so the caller can post a
     * message while the stream is being opened (and lose as few token deltas as possible). With {@code resume} the
     * request also carries {@code Last-Event-ID: N}, the standard SSE reconnect header.
     */
    public CompletableFuture<HttpResponse<InputStream>> openEvents(String sessionId, long after, boolean resume) {
        // No request timeout: the stream never ends by itself; SessionStream's watchdog handles silence.
        HttpRequest.Builder b = request(sessionPath(sessionId) + "/events?after=" + after, null)
                .header("Accept", "text/event-stream")
                .header("Cache-Control", "no-cache")
                .GET();
        if (resume) {
            b.header("Last-Event-ID", Long.toString(after));
        }
        return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Waits for a stream opened by {@link #openEvents} and checks its status. */
    public SseConnection awaitEvents(CompletableFuture<HttpResponse<InputStream>> pending, String sessionId)
            throws InterruptedException {
        HttpResponse<InputStream> response;
        try {
            response = pending.get();
        } catch (ExecutionException e) {
            throw GatewayException.unreachable(baseUrl, unwrap(e));
        } catch (CancellationException e) {
            // SessionStream.stop() cancelled the connection attempt; the caller sees that it was stopped.
            throw GatewayException.unreachable(baseUrl, e);
        }
        if (response.statusCode() / 100 != 2) {
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                body = "";
            }
            throw failure(response.statusCode(), body, sessionId);
        }
        return new SseConnection(response.body());
    }

    // ---- plumbing -----------------------------------------------------------------------------------------------

    private HttpRequest.Builder request(String path) {
        return request(path, REQUEST_TIMEOUT);
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path));
        if (timeout != null) {
            b.timeout(timeout);
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private HttpRequest post(String path, JsonNode body) {
        HttpRequest.Builder b = request(path).header("Accept", "application/json");
        if (body == null) {
            return b.POST(HttpRequest.BodyPublishers.noBody()).build();
        }
        return b.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
    }

    private HttpResponse<String> send(HttpRequest request, String sessionId) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw GatewayException.unreachable(baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw GatewayException.unreachable(baseUrl, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw failure(response.statusCode(), response.body(), sessionId);
        }
        return response;
    }

    private GatewayException failure(int status, String body, String sessionId) {
        String message = errorMessage(body);
        return switch (status) {
            case 401 -> GatewayException.unauthorized();
            case 404 -> sessionId != null ? GatewayException.noSession(sessionId)
                    : new GatewayException(GatewayException.Kind.HTTP, 404,
                    "the gateway at " + baseUrl + " answered 404 Not Found" + suffix(message)
                            + " (is --url pointing at an agentbus gateway?)");
            case 409 -> new GatewayException(GatewayException.Kind.CONFLICT, 409,
                    message != null ? message : "session " + sessionId + " is busy");
            default -> new GatewayException(GatewayException.Kind.HTTP, status,
                    "the gateway answered HTTP " + status + suffix(message));
        };
    }

    /** The gateway's {@link ApiError} body, or the start of whatever else it sent. */
    private static String errorMessage(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            if (JSON.readTree(body) instanceof ObjectNode) {
                ApiError error = ApiJson.read(body, ApiError.class);
                return error.message() != null && !error.message().isBlank() ? error.message() : error.error();
            }
        } catch (IOException notJson) {
            // fall through to the raw text
        }
        String flat = body.strip().replaceAll("\\s+", " ");
        return flat.length() > 200 ? flat.substring(0, 199) + "…" : flat;
    }

    private static String suffix(String message) {
        return message == null || message.isBlank() ? "" : ": " + message;
    }

    /** The answer as its api record, or a PROTOCOL error when it is not JSON of that shape. */
    private static <T> T read(HttpResponse<String> response, Class<T> type) {
        try {
            return ApiJson.read(response.body(), type);
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway sent a response that is not " + type.getSimpleName() + " JSON: "
                            + GatewayException.describe(e));
        }
    }

    private JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway sent a response that is not JSON: " + GatewayException.describe(e));
        }
    }

    private static String sessionPath(String sessionId) {
        // Session ids are opaque; encode them so an odd one cannot change the path. URLEncoder is for forms ('+').
        return "/api/v1/sessions/" + URLEncoder.encode(sessionId, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
