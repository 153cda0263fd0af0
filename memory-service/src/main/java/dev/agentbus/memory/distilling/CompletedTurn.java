package dev.agentbus.memory.distilling;

import java.util.List;

/**
 * A turn that ended {@code COMPLETED}: what the person said and what the agent answered, with their seqs.
 *
 * @param turnEndSeq the seq of its {@code turn.ended.v1}: the turn's id within its session
 * @param endedAt    when it ended: a rebuild dates the insights it finds then, so they decay as the originals did
 */
record CompletedTurn(String sessionId, String userId, long turnEndSeq, java.time.Instant endedAt, List<Line> lines) {
    CompletedTurn {
        lines = List.copyOf(lines);
    }

    /** The seqs the extraction read, the turn's end included. */
    List<Long> seqs() {
        List<Long> seqs = new java.util.ArrayList<>(lines.stream().map(Line::seq).toList());
        seqs.add(turnEndSeq);
        return List.copyOf(seqs);
    }

    record Line(Speaker speaker, long seq, String text) {
    }

    enum Speaker { USER, ASSISTANT }
}
