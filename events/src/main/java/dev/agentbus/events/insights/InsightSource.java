package dev.agentbus.events.insights;

import java.util.List;

/**
 * Where an insight was distilled from: one completed turn of one session.
 *
 * @param seqs the seqs of the turn's events the extraction read (the user's messages, the model's answers, the
 *             turn's end), so a person can find them with {@code GET /api/v1/sessions/{id}/events}
 */
public record InsightSource(String sessionId, List<Long> seqs) {
    public InsightSource {
        seqs = seqs == null ? List.of() : List.copyOf(seqs);
    }
}
