package dev.agentbus.api.sharing;

import java.time.Instant;

/** {@code GET /api/v1/shared/{token}}: what a share link shows, the conversation as Markdown. */
public record SharedSession(String title, Instant updatedAt, String markdown) {
}
