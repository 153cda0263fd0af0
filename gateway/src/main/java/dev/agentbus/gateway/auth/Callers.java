package dev.agentbus.gateway.auth;

import io.micronaut.http.HttpRequest;

/** Reads the {@link Caller} that {@link AuthenticationFilter} attached to a request. */
public final class Callers {
    static final String ATTRIBUTE = "agentbus.caller";

    private Callers() {
    }

    public static Caller callerOf(HttpRequest<?> request) {
        return request.getAttribute(ATTRIBUTE, Caller.class)
                .orElseThrow(() -> new IllegalStateException("request did not pass the authentication filter"));
    }

    /** The user the request acts as. */
    public static String userOf(HttpRequest<?> request) {
        return callerOf(request).userId();
    }

    /**
     * The client's address for the audit: the connection's remote address. Behind a reverse proxy that is the
     * proxy; docs/security.md says how to run one.
     */
    public static String addressOf(HttpRequest<?> request) {
        return request.getRemoteAddress().getAddress() == null ? request.getRemoteAddress().getHostString()
                : request.getRemoteAddress().getAddress().getHostAddress();
    }
}
