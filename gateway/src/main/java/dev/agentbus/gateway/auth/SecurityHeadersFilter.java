package dev.agentbus.gateway.auth;

import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * Headers on everything the gateway serves. A strict Content-Security-Policy: only the gateway's own scripts,
 * styles and images (no inline script, no eval, no other origin), no plugins, no framing. Browsers also must not
 * guess content types or send the page address to other sites. See docs/security.md.
 */
@ServerFilter("/**")
class SecurityHeadersFilter {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    @ResponseFilter
    public void addHeaders(MutableHttpResponse<?> response) {
        response.header("Content-Security-Policy", CSP);
        response.header("X-Content-Type-Options", "nosniff");
        response.header("Referrer-Policy", "no-referrer");
        response.header("X-Frame-Options", "DENY");
    }
}
