package dev.agentbus.testkit.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A client of the gateway's WebSocket API ({@code /ws}, docs/websocket.md) for tests, on the JDK's
 * {@link java.net.http.WebSocket}: every text message the gateway sends is kept in arrival order, read as JSON; how
 * the connection closed is kept too. Shared by the gateway's component tests and the system tests.
 */
public final class SocketClient implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Held for as long as the socket: a JDK HttpClient nobody references is closed, with its WebSockets. */
    private final HttpClient http;
    private final WebSocket socket;
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final List<JsonNode> seen = new ArrayList<>();
    /** The close code and reason, once the gateway closed the connection. */
    public final CompletableFuture<Map.Entry<Integer, String>> closed = new CompletableFuture<>();

    private SocketClient(HttpClient http, WebSocket.Builder builder, URI uri) {
        this.http = http;
        StringBuilder text = new StringBuilder();
        this.socket = builder.buildAsync(uri, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    try {
                        received.add(Json.mapper().readTree(text.toString()));
                    } catch (Exception e) {
                        received.add(Json.mapper().createObjectNode().put("notJson", text.toString()));
                    }
                    text.setLength(0);
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                closed.complete(Map.entry(statusCode, reason));
                return null;
            }

            @Override
            public void onError(WebSocket ws, Throwable error) {
                closed.completeExceptionally(error);
            }
        }).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    }

    /** Connects to {@code ws://…/ws?query} with the headers given (an Authorization header, say). */
    public static SocketClient connect(String baseUrl, String query, Map<String, String> headers) {
        HttpClient http = HttpClient.newHttpClient();
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        headers.forEach(builder::header);
        String ws = baseUrl.replaceFirst("^http", "ws").replaceAll("/$", "") + "/ws" + (query == null ? "" : "?" + query);
        return new SocketClient(http, builder, URI.create(ws));
    }

    public static SocketClient withToken(String baseUrl, String query, String token) {
        return connect(baseUrl, query, Map.of("Authorization", "Bearer " + token));
    }

    public void send(String text) {
        socket.sendText(text, true).join();
    }

    public void send(JsonNode json) {
        send(json.toString());
    }

    /** A command with an id: {@code {"id", "command", "args"}}. */
    public void command(String id, String command, Map<String, ?> args) {
        send(Json.mapper().createObjectNode().put("id", id).put("command", command)
                .set("args", Json.mapper().valueToTree(args)));
    }

    public void sendBinary(byte[] bytes) {
        socket.sendBinary(ByteBuffer.wrap(bytes), true).join();
    }

    /** Sends a text message in fragments. */
    public void sendFragments(String... parts) {
        for (int i = 0; i < parts.length; i++) {
            socket.sendText(parts[i], i == parts.length - 1).join();
        }
    }

    /** The next message the gateway sent. */
    public JsonNode next() throws InterruptedException {
        JsonNode message = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (message == null) {
            throw new AssertionError("no message within " + WAIT.toSeconds() + " s; seen so far: " + seen);
        }
        seen.add(message);
        return message;
    }

    /** Messages until one matches (inclusive); those before it are returned too, in order. */
    public List<JsonNode> until(Predicate<JsonNode> last) throws InterruptedException {
        List<JsonNode> out = new ArrayList<>();
        while (true) {
            JsonNode message = next();
            out.add(message);
            if (last.test(message)) {
                return out;
            }
        }
    }

    /** The result or error of the command with this id, after any deltas and notifications. */
    public JsonNode answer(String id) throws InterruptedException {
        return until(m -> id.equals(m.path("id").asText(null)) && !m.path("type").asText().equals("delta")).getLast();
    }

    public JsonNode ready() throws InterruptedException {
        JsonNode first = next();
        if (!first.path("type").asText().equals("ready")) {
            throw new AssertionError("expected ready first, got " + first);
        }
        return first;
    }

    public Map.Entry<Integer, String> awaitClose() throws Exception {
        return closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        socket.abort();
        http.close();
    }
}
