package dev.agentbus.events.state;

import dev.agentbus.events.models.ModelChoice;

/**
 * The session's model, folded from the log: what the session chose for itself ({@code model_settings.changed.v1})
 * and what its latest model call asked for ({@code model_call.started.v1}). The orchestrator's model-call effect reads
 * {@code asked}, so a call made again after a crash asks for the same as the recorded decision.
 *
 * @param chosen    the session's own choice; {@link ModelChoice#NONE}: the preset's, user's and installation's
 * @param changedBy who made that choice, null when none was made
 * @param asked     what the latest model call asked for; null before the first call, and for calls recorded before
 *                  models could be chosen per session
 * @param warnedFor the model and temperature the latest {@code model.warned.v1} was about ({@code model@temperature}),
 *                  so the same warning is not repeated at every call; null when none was given
 */
public record ModelState(ModelChoice chosen, String changedBy, ModelChoice asked,
                         @com.fasterxml.jackson.annotation.JsonInclude(
                                 com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) String warnedFor) {
    public static final ModelState NONE = new ModelState(ModelChoice.NONE, null, null, null);

    public ModelState {
        chosen = chosen == null ? ModelChoice.NONE : chosen;
    }

    public ModelState(ModelChoice chosen, String changedBy, ModelChoice asked) {
        this(chosen, changedBy, asked, null);
    }

    /** What {@code warnedFor} holds for a model and temperature. */
    public static String warningKey(String model, Double temperature) {
        return (model == null ? "" : model) + "@" + temperature;
    }

    /**
     * For {@code @JsonInclude(CUSTOM)}: true when the state has nothing to say, so the JSON of a session that never
     * chose a model reads as it did before. Not a comparison of two model states.
     */
    @SuppressWarnings("EqualsWhichDoesntCheckParameterClass")
    public static final class IsNone {
        @Override
        public boolean equals(Object value) {
            return value == null || NONE.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
