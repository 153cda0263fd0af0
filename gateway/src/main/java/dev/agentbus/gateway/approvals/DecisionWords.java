package dev.agentbus.gateway.approvals;

import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.core.annotation.Nullable;

import java.util.Locale;
import java.util.Map;

/**
 * A person's decision on something that waits for approval, as the API takes it: one word of a fixed set (any case)
 * and an optional note for the model. The approval routes and the plan routes decide the same kind of thing, so they
 * read it the same way and answer bad input with the same messages.
 */
public final class DecisionWords {
    public static final int MAX_NOTE_CHARS = 4000;

    private final Map<String, ApprovalDecision> words;
    private final String expected;

    /** @param expected how the 400 names the words, e.g. "approve, deny or always" */
    public DecisionWords(Map<String, ApprovalDecision> words, String expected) {
        this.words = Map.copyOf(words);
        this.expected = expected;
    }

    /** The decision a word stands for; 400 for anything else, a missing word included. */
    public ApprovalDecision decision(@Nullable String word) {
        ApprovalDecision decision = word == null ? null : words.get(word.strip().toLowerCase(Locale.ROOT));
        if (decision == null) {
            throw ApiException.badRequest("decision must be " + expected);
        }
        return decision;
    }

    /** The note as given (null: none); 400 when it is longer than {@link #MAX_NOTE_CHARS}. */
    public static String note(@Nullable String note) {
        if (note != null && note.length() > MAX_NOTE_CHARS) {
            throw ApiException.badRequest("note is longer than " + MAX_NOTE_CHARS + " characters");
        }
        return note;
    }
}
