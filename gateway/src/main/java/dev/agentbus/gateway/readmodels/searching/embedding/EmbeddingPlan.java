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
 * <p>Incognito sessions are embedded like any other: the vectors are their owner's search index, as the full-text
 * rows are, and incognito turns off what is learned from a session (memory), not its owner's search of it.
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
            MessageIndexProjection.Row row = MessageIndexProjection.messageOf(e);
            if (row != null && row.userId() != null) {
                String text = row.text().strip();
                messages.add(new Message(row, p.partition(), p.offset(),
                        text.length() > maxChars ? text.substring(0, maxChars) : text));
            }
        }
        return new EmbeddingPlan(List.copyOf(messages), Set.copyOf(deleted));
    }
}
