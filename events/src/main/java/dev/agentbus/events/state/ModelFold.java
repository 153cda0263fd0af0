package dev.agentbus.events.state;

import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.ModelWarned;

/**
 * The part of the fold that assigns {@link ModelState}, apart from {@link SessionFold} so the session's model changes
 * in one place. Pure and assigning only: the decider checked the choice and worked out what each call asks for.
 */
final class ModelFold {
    private ModelFold() {
    }

    static ModelState chosen(ModelState m, ModelSettingsChanged e) {
        ModelChoice chosen = new ModelChoice(e.model(), e.sampling());
        return new ModelState(chosen, chosen.unset() ? null : e.changedBy(), m.asked(), m.warnedFor());
    }

    /** A call recorded before models could be chosen asks for nothing in particular: {@code asked} becomes null. */
    static ModelState asked(ModelState m, ModelCallStarted e) {
        return new ModelState(m.chosen(), m.changedBy(), e.asked(), m.warnedFor());
    }

    static ModelState warned(ModelState m, ModelWarned e) {
        return new ModelState(m.chosen(), m.changedBy(), m.asked(), ModelState.warningKey(e.model(), e.temperature()));
    }

    /** A fork keeps the source's choice; its own calls are not made yet. */
    static ModelState forked(ModelState from) {
        return from == null ? ModelState.NONE : new ModelState(from.chosen(), from.changedBy(), null);
    }
}
