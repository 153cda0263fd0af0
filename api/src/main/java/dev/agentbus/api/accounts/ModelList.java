package dev.agentbus.api.accounts;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * {@code GET /api/v1/models}: the models the caller's sessions can use, as their model server lists them
 * ({@code GET /v1/models}). {@code server} is {@code own} for the caller's own server ({@code PUT /api/v1/me/model}),
 * else {@code team}.
 */
public record ModelList(String server, List<Model> models) {

    /**
     * One model. {@code contextWindow} is the window in tokens where the list says it (vLLM's {@code max_model_len},
     * {@code context_length}, {@code max_context_length}), absent where it does not.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Model(String id, String ownedBy, Long contextWindow) {
    }
}
