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
     * One model. {@code contextWindow} is the window in tokens where the server says it (vLLM's
     * {@code max_model_len}, {@code context_length}, LM Studio's {@code loaded_context_length} or
     * {@code max_context_length}), absent where it does not. {@code vision}, {@code tools} and {@code thinking}: whether
     * it takes images, takes tools, reasons before answering, as {@code capabilitiesFrom} says (LM Studio's
     * {@code /api/v0/models}, Ollama's {@code /api/show}, or {@code agentbus.models.vision} and {@code no-vision}
     * for vision); each absent where nobody says.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Model(String id, String ownedBy, Long contextWindow, Boolean vision, Boolean tools,
                        Boolean thinking, String capabilitiesFrom) {
        public Model(String id, String ownedBy, Long contextWindow) {
            this(id, ownedBy, contextWindow, null, null, null, null);
        }
    }
}
