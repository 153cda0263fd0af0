package dev.agentbus.cli.gateway;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;
import java.util.List;

/**
 * Why the gateway could not be used, already phrased for a person: commands let it propagate and the top level
 * prints its message and exits 1. The kind decides what is worth retrying while following a stream.
 */
public final class GatewayException extends RuntimeException {

    public enum Kind {
        /** No connection, timed out, or the connection broke before a response. */
        UNREACHABLE,
        /** 401: no token or a wrong one. */
        UNAUTHORIZED,
        /** 404 for a session path. */
        NOT_FOUND,
        /** 409: the session is busy. */
        CONFLICT,
        /** Any other non-2xx answer. */
        HTTP,
        /** A 2xx answer the CLI cannot read. */
        PROTOCOL
    }

    private final Kind kind;
    private final int status;

    public GatewayException(Kind kind, int status, String message) {
        super(message);
        this.kind = kind;
        this.status = status;
    }

    public static GatewayException unreachable(String url, Throwable cause) {
        GatewayException e = new GatewayException(Kind.UNREACHABLE, 0,
                "cannot reach the gateway at " + url + ": " + describe(cause));
        e.initCause(cause);
        return e;
    }

    public static GatewayException unauthorized() {
        return new GatewayException(Kind.UNAUTHORIZED, 401,
                "the gateway refused the token (set AGENTBUS_TOKEN or --token)");
    }

    public static GatewayException noSession(String sessionId) {
        return new GatewayException(Kind.NOT_FOUND, 404, "no session " + sessionId);
    }

    public Kind kind() {
        return kind;
    }

    public int status() {
        return status;
    }

    /** Worth trying again while following a stream: the network, or the gateway restarting (5xx). */
    public boolean retryable() {
        return kind == Kind.UNREACHABLE || (kind == Kind.HTTP && status >= 500);
    }

    /**
     * The most useful message in a cause chain. The JDK's HttpClient often throws a ConnectException whose own
     * message is null and whose cause says "Connection refused"; printing "null" would help nobody.
     */
    static String describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                return c.getMessage();
            }
        }
        // Most specific first: an unknown host arrives as a ConnectException caused by UnresolvedAddressException.
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = t; c != null && chain.size() < 20; c = c.getCause()) {
            chain.add(c);
        }
        if (chain.stream().anyMatch(c -> c instanceof UnresolvedAddressException || c instanceof UnknownHostException)) {
            return "unknown host";
        }
        if (chain.stream().anyMatch(c -> c instanceof HttpConnectTimeoutException)) {
            return "connection timed out";
        }
        if (chain.stream().anyMatch(c -> c instanceof HttpTimeoutException)) {
            return "no answer in time";
        }
        if (chain.stream().anyMatch(c -> c instanceof ConnectException)) {
            return "connection refused";
        }
        if (chain.stream().anyMatch(c -> c instanceof ClosedChannelException || c instanceof EOFException)) {
            return "the connection was closed";
        }
        return t == null ? "unknown error" : t.getClass().getSimpleName();
    }
}
