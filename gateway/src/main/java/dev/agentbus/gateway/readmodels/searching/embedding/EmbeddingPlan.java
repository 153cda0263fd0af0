package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.SessionDeleted;
import dev.agentbus.gateway.readmodels.searching.MessageIndexProjection;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one batch of the session log asks of the embedder, decided from the events alone (no I/O): the messages to
 * embed and the sessions whose vectors go. The messages are exactly those full-text search indexes ({@link
 * MessageIndexProjection#messageOf}), so both searches look at the same texts.
 *
 * <p>A message whose session is deleted later in the same batch is not embedded at all: its vector would be removed
 * again in the same transaction, and asking the model server for it would be wasted (a replay of a long log meets
 * many deleted sessions).
 *
 * @param messages what to embed, in log order
 * @param deleted  sessions deleted in this batch: all their vectors, of every model, are removed
 */
record EmbeddingPlan(List<Message> messages, Set<String> deleted) {
    /** A message to embed: its index row, where it is in the log, and the text the model is given. */
    public record Message(MessageIndexProjection.Row row, int partition, long offset, String input) {
    }

    /** One decoded event and where it was read. */
    public record Positioned(EventEnvelope event, int partition, long offset) {
    }

    public static EmbeddingPlan of(List<Positioned> events, int maxChars) {
        Set<String> deleted = new LinkedHashSet<>();
        List<Message> messages = new ArrayList<>();
        for (Positioned p : events) {
            EventEnvelope e = p.event();
            if (e.event() instanceof SessionDeleted) {
                deleted.add(e.sessionId());
                messages.removeIf(m -> m.row().sessionId().equals(e.sessionId()));
                continue;
            }
            if (neverEmbedded(e)) {
                continue;
            }
            MessageIndexProjection.Row row = MessageIndexProjection.messageOf(e);
            if (row != null && row.userId() != null) {
                String text = row.text().strip();
                messages.add(new Message(row, p.partition(), p.offset(),
                        text.length() > maxChars ? text.substring(0, maxChars) : text));
            }
        }
        return new EmbeddingPlan(List.copyOf(messages), Set.copyOf(deleted));
    }

    /**
     * The hook for incognito sessions (issue 14: "incognito sessions are never read"): none exist yet, because
     * {@code session.created.v1} has no such flag. When it gets one, this is where such a session's messages are
     * kept out of the embedder, and the embedder must then remember those session ids (a table beside its offsets),
     * because a session's messages arrive in later batches than its creation.
     */
    static boolean neverEmbedded(EventEnvelope event) {
        return false;
    }
}
