package dev.agentbus.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for the gateway's HTTP API, on the JDK's built-in server: canned JSON answers and scripted SSE
 * connections. It tests the CLI's side of the contract (parsing, rendering, exit codes, reconnects); the real
 * gateway is tested end-to-end elsewhere.
 */
public final class FakeGateway implements AutoCloseable {

    /** One request as the fake received it. Header names are case-insensitive. */
    public record Request(String method, String path, String query, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name);
        }
    }

    /**
     * What one SSE connection sends: the chunks, then either a close (a dropped connection, from the client's point
     * of view) or holding the connection open like the real stream, which never ends by itself.
     */
    public record SseScript(List<String> chunks, boolean hold, String awaitRequest, List<String> afterRequest) {
        public SseScript(List<String> chunks, boolean hold) {
            this(chunks, hold, null, List.of());
        }

        public static SseScript thenClose(String... chunks) {
            return new SseScript(List.of(chunks), false);
        }

        public static SseScript thenHold(String... chunks) {
            return new SseScript(List.of(chunks), true);
        }

        /**
         * Sends {@code chunks}, then waits until the fake has received {@code request} ("METHOD /path"), then sends
         * {@code after} and holds: a stream that reacts to what the client does, e.g. a turn that ends CANCELLED
         * once the client posted a cancel.
         */
        public static SseScript untilRequest(String request, List<String> chunks, String... after) {
            return new SseScript(List.copyOf(chunks), true, request, List.of(after));
        }
    }

    private record Canned(int status, String contentType, String body) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Canned> routes = new ConcurrentHashMap<>();
    private final Map<String, Deque<Canned>> sequences = new ConcurrentHashMap<>();
    private final Map<String, Deque<SseScript>> streams = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile String requiredToken;

    public FakeGateway() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public FakeGateway json(String method, String path, int status, String body) {
        routes.put(method + " " + path, new Canned(status, "application/json", body));
        return this;
    }

    /** Answers the requests to one route in turn with these bodies; the last one answers every request after. */
    public FakeGateway jsonSequence(String method, String path, int status, String... bodies) {
        Deque<Canned> answers = new ArrayDeque<>();
        for (String body : bodies) {
            answers.add(new Canned(status, "application/json", body));
        }
        sequences.put(method + " " + path, answers);
        return this;
    }

    /** Like {@link #jsonSequence} with a status per answer: {@code answers} alternates status and body. */
    public FakeGateway answers(String method, String path, Object... statusThenBody) {
        Deque<Canned> answers = new ArrayDeque<>();
        for (int i = 0; i + 1 < statusThenBody.length; i += 2) {
            answers.add(new Canned((Integer) statusThenBody[i], "application/json", (String) statusThenBody[i + 1]));
        }
        sequences.put(method + " " + path, answers);
        return this;
    }

    public FakeGateway ndjson(String path, String body) {
        routes.put("GET " + path, new Canned(200, "application/x-ndjson", body));
        return this;
    }

    /** Each connection to path takes the next script; when they run out, connections are held open empty. */
    public FakeGateway sse(String path, SseScript... scripts) {
        streams.put(path, new ArrayDeque<>(List.of(scripts)));
        return this;
    }

    /** Answer 401 unless the request carries {@code Authorization: Bearer token}. */
    public FakeGateway requireToken(String token) {
        this.requiredToken = token;
        return this;
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requests(String method, String path) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
    }

    // ---- wire helpers ---------------------------------------------------------------------------------------------

    /** A session event as the gateway sends it: wire type as event name, seq as id, envelope as data. */
    public static String event(EventEnvelope e) {
        String json = EventCodec.eventToJson(e);
        String type = json.replaceFirst("^\\{\"type\":\"([^\"]+)\".*$", "$1");
        return "event: " + type + "\nid: " + e.seq() + "\ndata: " + json + "\n\n";
    }

    public static String delta(String kind, String ref, String text) {
        String data = dev.agentbus.events.Json.mapper().createObjectNode()
                .put("sessionId", "s1").put("kind", kind).put("ref", ref).put("text", text)
                .put("time", "2025-01-01T00:00:00Z").toString();
        return "event: delta\ndata: " + data + "\n\n";
    }

    public static String ping() {
        return "event: ping\ndata: {}\n\n";
    }

    public static String ndjson(List<EventEnvelope> events) {
        StringBuilder b = new StringBuilder();
        events.forEach(e -> b.append(EventCodec.eventToJson(e)).append('\n'));
        return b.toString();
    }

    // ---- serving --------------------------------------------------------------------------------------------------

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            Request request = new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getQuery(),
                    headers, body);
            requests.add(request);

            if (requiredToken != null && !("Bearer " + requiredToken).equals(request.header("Authorization"))) {
                send(exchange, new Canned(401, "application/json",
                        "{\"error\":\"unauthorized\",\"message\":\"missing or wrong token\"}"));
                return;
            }
            if (request.method().equals("GET") && streams.containsKey(path)) {
                stream(exchange, path);
                return;
            }
            Canned canned = next(request.method() + " " + path);
            send(exchange, canned != null ? canned
                    : new Canned(404, "application/json", "{\"error\":\"not_found\",\"message\":\"no such thing\"}"));
        }
    }

    private Canned next(String route) {
        Deque<Canned> answers = sequences.get(route);
        if (answers != null) {
            synchronized (answers) {
                return answers.size() > 1 ? answers.poll() : answers.peek();
            }
        }
        return routes.get(route);
    }

    private boolean received(String request) {
        return requests.stream().anyMatch(r -> (r.method() + " " + r.path()).equals(request));
    }

    private void stream(HttpExchange exchange, String path) throws IOException {
        SseScript script;
        Deque<SseScript> scripts = streams.get(path);
        synchronized (scripts) {
            script = scripts.isEmpty() ? SseScript.thenHold() : scripts.poll();
        }
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            for (String chunk : script.chunks()) {
                out.write(chunk.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            if (script.awaitRequest() != null) {
                while (!received(script.awaitRequest()) && !closing.await(10, TimeUnit.MILLISECONDS)) {
                    // wait for the client to make the request
                }
                for (String chunk : script.afterRequest()) {
                    out.write(chunk.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
            if (script.hold()) {
                closing.await();
            }
        } catch (IOException clientWentAway) {
            // the CLI closed the stream (turn over, Ctrl-C): nothing to do
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, Canned canned) throws IOException {
        byte[] bytes = canned.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", canned.contentType());
        exchange.sendResponseHeaders(canned.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
