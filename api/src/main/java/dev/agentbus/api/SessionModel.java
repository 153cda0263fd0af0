package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.state.ModelState;

/**
 * {@code model} in {@code GET /api/v1/sessions/{id}}: the session's own model and sampling, and what its latest model
 * call asked for. Absent for a session that never chose a model and made no call since models could be chosen.
 *
 * @param chosen    the session's own choice (its fields absent: the preset's temperature, the user's and the
 *                  installation's settings); absent when none
 * @param changedBy who made that choice
 * @param lastCall  what the latest model call asked for, all layers applied (a field absent: not sent, the server's
 *                  default; no model: the server's first)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionModel(Settings chosen, String changedBy, Settings lastCall) {

    static SessionModel of(ModelState m) {
        if (m == null || m.equals(ModelState.NONE)) {
            return null;
        }
        return new SessionModel(Settings.of(m.chosen()), m.changedBy(), Settings.of(m.asked()));
    }

    /** A model and its sampling, each field absent when not set. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Settings(String model, Double temperature, Double topP, Integer maxTokens, String reasoningEffort,
                           Integer thinkingBudget) {
        public Settings(String model, Double temperature, Double topP, Integer maxTokens) {
            this(model, temperature, topP, maxTokens, null, null);
        }

        static Settings of(ModelChoice c) {
            if (c == null || c.unset()) {
                return null;
            }
            return new Settings(c.model(), c.sampling().temperature(), c.sampling().topP(), c.sampling().maxTokens(),
                    c.sampling().reasoningEffort(), c.sampling().thinkingBudget());
        }
    }
}
