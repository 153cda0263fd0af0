package dev.agentbus.modelclient;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;

/**
 * Words a failed model call in terms an operator can act on: which server, what went wrong (connection refused, an
 * unknown host, a time-out, the server's own error text) and how often it was tried. Kept in one place so every way a
 * call can fail — sending, reading a stream, reading a whole reply — says it the same way.
 */
final class CallFailures {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longer error bodies (a proxy's HTML page) are cut here: the start says what went wrong. */
    private static final int MAX_ERROR_TEXT = 500;

    private final ModelSettings settings;
    /** A user's server: what it says is never quoted, since it may be an internal service's error text. */
    private final boolean hideServerText;

    CallFailures(ModelSettings settings, boolean hideServerText) {
        this.settings = settings;
        this.hideServerText = hideServerText;
    }

    /**
     * An error answer in words: {@code HTTP 400: <the server's own error text>} for the operator's server, its status
     * and a fixed reason ({@link OutgoingPolicy#statusReason}) for a server a user chose.
     */
    String errorWords(int status, String body) {
        return hideServerText ? OutgoingPolicy.statusReason(status)
                : "HTTP " + status + ": " + (body == null ? "no readable error body" : errorText(body));
    }

    /** The server's own words, where they may be shown; for a user's server a fixed text instead. */
    String serverWords(String text) {
        return hideServerText ? "(the server's words are not shown)" : text;
    }

    String server() {
        return "model server at " + settings.baseUrl();
    }

    /** How often a call was retried before it failed, as a suffix; empty when retries are off. */
    String retried() {
        int retries = settings.maxRetries();
        return retries == 0 ? "" : " (after " + retries + (retries == 1 ? " retry)" : " retries)");
    }

    String timeoutText(IOException e) {
        return "no complete answer within " + settings.timeout() + " (" + e.getMessage() + ")";
    }

    /** The reason behind an I/O failure, found anywhere in its causes; else the root cause as it is. */
    String describeIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return "connection refused (is the server running and is the URL right?)";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host " + t.getMessage();
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof HttpConnectTimeoutException) {
                return "could not connect within " + settings.timeout();
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    ModelCallException unreadable(String what, String why) {
        return new ModelCallException(server() + " sent a " + what + " reply that could not be read: " + why, null);
    }

    /** The server's own words: {@code error.message} of an OpenAI-style error body, else the body itself. */
    static String errorText(String body) {
        if (body == null || body.isBlank()) {
            return "no error body";
        }
        try {
            JsonNode json = JSON.readTree(body);
            if (json != null && json.isObject()) {
                return errorText(json);
            }
        } catch (JsonProcessingException notJson) {
            // a proxy's plain-text page: quoted as it is
        }
        return abbreviate(body.strip());
    }

    static String errorText(JsonNode body) {
        JsonNode error = body.get("error");
        String message = error != null && error.isObject() ? ReplyJson.text(error.get("message"))
                : error != null && error.isTextual() ? error.asText() : ReplyJson.text(body.get("message"));
        return abbreviate(message != null ? message : body.toString());
    }

    private static String abbreviate(String text) {
        return text.length() <= MAX_ERROR_TEXT ? text : text.substring(0, MAX_ERROR_TEXT) + "…";
    }
}
