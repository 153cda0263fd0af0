package dev.agentbus.api.sharing;

import java.time.Instant;

/**
 * {@code POST .../share-links}: the new link, shown this once. {@code path} is the page that shows the session
 * read-only ({@code /share.html#<token>}: the token is in the fragment, which browsers never send to a server or in
 * a Referer); {@code token} is the credential for {@code GET /api/v1/shared/{token}}.
 */
public record CreatedShareLink(String linkId, String token, String path, Instant createdAt) {
}
