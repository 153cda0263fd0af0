package dev.agentbus.orchestrator.deciding.remembering;

import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.state.SessionState;

import java.util.ArrayList;
import java.util.List;

/**
 * The owner's memory is the owner's alone, also in a session shared with a group (issue 28). A member with write
 * access who starts a turn, joins a waiting one with a message, whispers into a running one or denies one of its
 * calls with a note (all words the model reads) could otherwise just ask the agent what it remembers about the owner,
 * or have it change the owner's insights. So from that moment the turn runs with memory off, as an incognito session
 * does: no memory document and no insights in its prompt, earlier {@code manage_memory} calls blanked in it
 * ({@code PromptBuilder}), {@code manage_memory} refused, and its sub-agents incognito. The owner's next turn has the
 * owner's memory again: the owner is the one who shared the session and sees every answer.
 *
 * <p>The choice is recorded with the events that already carry the prompt's memory, so every model call of the turn,
 * a replay and a fork see it without knowing who spoke: an empty {@code memory.attached.v1} with version
 * {@link #WITHHELD} (a version no memory document has; the document's versions start at 1, 0 for none), and an
 * empty {@code insights.injected.v1} when the last turn had insights. Pure.
 */
public final class OwnerOnlyMemory {
    /** The version recorded with the empty memory document of a turn whose owner's memory is withheld. */
    public static final long WITHHELD = MemoryAttached.WITHHELD;

    /** What {@code manage_memory} answers in such a turn; it names no insight. */
    static final String REFUSAL = "memory is off in this turn: it was started by a group member the session is shared "
            + "with, not by the session's owner, so the owner's memory is neither shown nor changed in it";

    private OwnerOnlyMemory() {
    }

    /** Whether {@code userId} (who sent the input) is someone other than the session's owner. */
    public static boolean byMember(SessionState state, String userId) {
        return state.userId() != null && userId != null && !userId.equals(state.userId());
    }

    /** Whether the current (or last) turn runs without the owner's memory. */
    public static boolean withheld(SessionState state) {
        return state.memoryVersion() == WITHHELD;
    }

    /** The events that take the owner's memory out of the turn's prompt from now on; none when it is out already. */
    public static List<SessionEvent> withhold(SessionState state) {
        List<SessionEvent> out = new ArrayList<>();
        if (!withheld(state)) {
            out.add(new MemoryAttached("", WITHHELD));
        }
        if (!state.context().insights().isEmpty()) {
            out.add(new InsightsInjected(List.of()));
        }
        return out;
    }
}
