package dev.agentbus.events.models;

import java.time.Instant;

/**
 * A user's own model server, on the compacted topic {@code agentbus.user-models}, keyed by user id; a tombstone
 * (no value) when the user goes back to the team's default. Written only by the gateway ({@code PUT
 * /api/v1/me/model}); read by the orchestrator, which calls this server for the user's sessions, and the gateway.
 *
 * @param baseUrl      the OpenAI-compatible API root, e.g. {@code https://api.example.com/v1}
 * @param model        the model name; blank: the server's first
 * @param sealedApiKey the API key sealed with the installation's secret key (AES-256-GCM, bound to the user id),
 *                     so the topic never holds it in the clear; null: no key
 * @param version      1, 2, 3 … per user, so a writer can wait for its own change
 * @param sampling     the user's temperature, top-p and token limit; null or unset fields (all of them in records
 *                     written before sampling could be set): the installation's
 */
public record UserModelSettings(String userId, String baseUrl, String model, String sealedApiKey, long version,
                                Instant updatedAt, Sampling sampling) {

    public UserModelSettings {
        sampling = sampling == null ? Sampling.NONE : sampling;
    }

    /** Without sampling of the user's own: as written before it could be set. */
    public UserModelSettings(String userId, String baseUrl, String model, String sealedApiKey, long version,
                             Instant updatedAt) {
        this(userId, baseUrl, model, sealedApiKey, version, updatedAt, Sampling.NONE);
    }

    public boolean hasApiKey() {
        return sealedApiKey != null && !sealedApiKey.isBlank();
    }
}
