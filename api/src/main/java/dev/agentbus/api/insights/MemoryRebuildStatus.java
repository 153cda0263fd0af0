package dev.agentbus.api.insights;

import java.util.Map;

/**
 * The answers of {@code POST} and {@code GET /api/v1/admin/rebuild-memory}: a rebuild of users' insights from the
 * session log.
 *
 * @param user  the one user asked for; null for every user (and in the answers of {@code GET})
 * @param users the users whose insights the rebuild replaced so far, with the version that replaced them
 */
public record MemoryRebuildStatus(String rebuildId, String user, Map<String, Long> users) {
    public MemoryRebuildStatus {
        users = users == null ? Map.of() : Map.copyOf(new java.util.TreeMap<>(users));
    }
}
