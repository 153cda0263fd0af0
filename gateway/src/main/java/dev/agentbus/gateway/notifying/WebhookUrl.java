package dev.agentbus.gateway.notifying;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.gateway.errors.ApiException;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A webhook URL a user may set: absolute, http or https, with a host, of a sane length, and one the
 * {@link OutgoingPolicy} lets the installation reach (no internal address unless the operator allows it; checked
 * again before every delivery).
 */
final class WebhookUrl {
    static final int MAX_CHARS = 2000;

    private WebhookUrl() {
    }

    /** The URL to store, null for "no webhook" (absent or blank), or a 400 that says what is wrong. */
    static String check(String url, OutgoingPolicy policy) {
        if (url == null || url.isBlank()) {
            return null;
        }
        String u = url.strip();
        if (u.length() > MAX_CHARS) {
            throw ApiException.badRequest("webhookUrl is longer than " + MAX_CHARS + " characters");
        }
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            throw ApiException.badRequest("webhookUrl is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw ApiException.badRequest("webhookUrl must be an http or https URL, not '" + u + "'");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw ApiException.badRequest("webhookUrl must name a host: '" + u + "'");
        }
        if (uri.getUserInfo() != null) {
            throw ApiException.badRequest("webhookUrl must not carry a user name or password");
        }
        try {
            policy.checkToSave(u);
        } catch (OutgoingRefused e) {
            throw ApiException.badRequest("webhookUrl is refused: " + e.getMessage());
        }
        return u;
    }
}
