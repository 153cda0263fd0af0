package dev.agentbus.orchestrator.deciding.models;

import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.session.SessionEvent.ModelWarned;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.ModelState;
import dev.agentbus.events.state.SessionState;

import java.util.Optional;

/**
 * The warning for a thinking model at a high temperature. Reasoning models (DeepSeek-R1, QwQ, Qwen3 in thinking
 * mode, gpt-oss) are tuned for a temperature around 0.6; well above it their reasoning wanders, repeats itself and
 * runs into the token limit. The rule does not refuse the call (a person may want it), it says so once per model and
 * temperature, in the log where the UI and the CLI show it.
 *
 * <p>A model counts as thinking when the call asks it for a reasoning effort or a thinking budget, or when an answer
 * in this session came with reasoning (the decider knows no more than the log: a model server's own word on it is
 * not asked for here).
 */
public final class ThinkingTemperature {
    /** Above this the warning is given: the top of what reasoning models' own cards recommend, with a margin. */
    public static final double HIGH = 1.0;

    private ThinkingTemperature() {
    }

    /** The warning for the call just started in {@code state}, if it deserves one not given yet. */
    public static Optional<ModelWarned> warning(SessionState state) {
        ModelChoice asked = state.models().asked();
        if (asked == null || asked.sampling().temperature() == null || asked.sampling().temperature() <= HIGH) {
            return Optional.empty();
        }
        boolean askedToThink = asked.sampling().asksForReasoning();
        boolean hasThought = state.messages().stream()
                .anyMatch(m -> m instanceof Message.Assistant a && a.reasoning() != null && !a.reasoning().isBlank());
        if (!askedToThink && !hasThought) {
            return Optional.empty();
        }
        String key = ModelState.warningKey(asked.model(), asked.sampling().temperature());
        if (key.equals(state.models().warnedFor())) {
            return Optional.empty();
        }
        String model = asked.model() == null ? "the model" : asked.model();
        return Optional.of(new ModelWarned(asked.model(), asked.sampling().temperature(),
                model + " thinks before it answers (" + (askedToThink ? "a reasoning effort or budget is asked for"
                        : "it answered with reasoning") + ") and runs at temperature " + asked.sampling().temperature()
                        + "; thinking models wander and loop above " + HIGH + " (about 0.6 is what most recommend)"));
    }
}
