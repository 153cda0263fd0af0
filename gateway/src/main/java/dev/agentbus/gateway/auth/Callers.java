package dev.agentbus.gateway.auth;

import io.micronaut.http.HttpRequest;

/** Reads the {@link Caller} that {@link AuthenticationFilter} attached to a request. */
public final class Callers {
    static final String ATTRIBUTE = "agentbus.caller";
    static final String ADDRESS = "agentbus.client-address";

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
     * The client's address, for the audit and the login throttle: the connection's remote address, or, when that is
     * a trusted proxy ({@code agentbus.auth.trusted-proxies}), the address it forwarded ({@link TrustedProxies}),
     * as {@link AuthenticationFilter} worked it out.
     */
    public static String addressOf(HttpRequest<?> request) {
        return request.getAttribute(ADDRESS, String.class).orElseGet(() -> remoteOf(request));
    }

    /** The connection's own remote address. */
    static String remoteOf(HttpRequest<?> request) {
        return request.getRemoteAddress().getAddress() == null ? request.getRemoteAddress().getHostString()
                : request.getRemoteAddress().getAddress().getHostAddress();
    }
}
