package dev.agentbus.api.sharing;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;

/** {@code GET .../share-links}: one link of a session (never its token); {@code revokedAt} once it is revoked. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShareLink(String linkId, String createdBy, Instant createdAt, Instant revokedAt) {
}
