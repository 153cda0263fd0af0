package dev.agentbus.gateway.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * A gateway client for the accounts tests: a browser (it keeps the login cookie and sends the CSRF token, as the web
 * UI will) or a program with a bearer key. The cookie is handled by hand, so tests see exactly what is sent.
 */
final class Client {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String base;
    private String bearer;
    private String cookie;
    private String csrf;

    record Response(int status, String body, HttpHeaders headers) {
        JsonNode json() {
            try {
                return Json.mapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }

        String message() {
            return json().path("message").asText();
        }
    }

    private Client(String base) {
        this.base = base;
    }

    static Client browser(String base) {
        return new Client(base);
    }

    static Client withKey(String base, String key) {
        Client c = new Client(base);
        c.bearer = key;
        return c;
    }

    /** Logs in; on 200 keeps the cookie and the CSRF token for the requests that follow. */
    Response login(String username, String password, String totp) {
        Map<String, Object> body = totp == null ? Map.of("username", username, "password", password)
                : Map.of("username", username, "password", password, "totp", totp);
        Response r = send("POST", "/api/v1/auth/login", body);
        if (r.status() == 200) {
            cookie = r.headers().allValues("Set-Cookie").stream().filter(h -> h.startsWith("agentbus_login="))
                    .findFirst().map(h -> h.substring(0, h.indexOf(';'))).orElseThrow();
            csrf = r.json().get("csrfToken").asText();
        }
        return r;
    }

    Response get(String path) {
        return send("GET", path, null);
    }

    Response post(String path, Object body) {
        return send("POST", path, body);
    }

    Response put(String path, Object body) {
        return send("PUT", path, body);
    }

    Response delete(String path) {
        return send("DELETE", path, null);
    }

    Response delete(String path, Object body) {
        return send("DELETE", path, body);
    }

    /** Sends with a different CSRF header (null: none), to check that forged ones are refused. */
    Response postWithCsrf(String path, Object body, String csrfHeader) {
        String kept = csrf;
        csrf = csrfHeader;
        try {
            return send("POST", path, body);
        } finally {
            csrf = kept;
        }
    }

    void cookie(String rawCookieHeader) {
        cookie = rawCookieHeader;
    }

    String cookie() {
        return cookie;
    }

    Response send(String method, String path, Object body) {
        return sendWithHeaders(method, path, body, Map.of());
    }

    /** A GET of a stream (server-sent events): what it sends within {@code listen}, then the connection is closed. */
    Response listen(String path, java.time.Duration listen) {
        try (Listening stream = open(path)) {
            stream.reader().join(listen.toMillis()); // returns early only if the stream ends
            return new Response(stream.status(), stream.received(), stream.headers());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A stream (server-sent events) kept open: what it has sent so far is {@link Listening#received()}, for a test
     * that waits on it while it makes things happen; {@link Listening#close()} ends it.
     */
    Listening open(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        try {
            HttpResponse<java.util.stream.Stream<String>> r = HTTP.send(b.build(),
                    HttpResponse.BodyHandlers.ofLines());
            StringBuffer received = new StringBuffer();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    r.body().forEach(line -> received.append(line).append('\n'));
                } catch (RuntimeException closed) {
                    // closed by the test
                }
            });
            return new Listening(r.statusCode(), r.headers(), received, r.body(), reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Listening(int status, HttpHeaders headers, StringBuffer buffer, java.util.stream.Stream<String> lines,
                     Thread reader) implements AutoCloseable {
        String received() {
            return buffer.toString();
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    Response sendWithHeaders(String method, String path, Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
            headers.forEach(b::header);
            if (bearer != null) {
                b.header("Authorization", "Bearer " + bearer);
            }
            if (cookie != null) {
                b.header("Cookie", cookie);
            }
            if (csrf != null) {
                b.header("X-CSRF-Token", csrf);
            }
            if (body != null) {
                b.header("Content-Type", "application/json");
                String json = body instanceof String s ? s : Json.mapper().writeValueAsString(body);
                b.method(method, HttpRequest.BodyPublishers.ofString(json));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
