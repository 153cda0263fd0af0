package dev.agentbus.orchestrator.deciding.models;

import dev.agentbus.events.context.Preset;
import dev.agentbus.events.context.Presets;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.state.SessionState;

import java.util.Optional;

/**
 * The rules of a session's model and sampling: which choice a person may make, and what a model call asks for. The
 * layers, highest first: the session's own choice, its preset's temperature, the user's settings, the installation's.
 * The user's and the installation's come in already stacked ({@code DecisionContext.modelDefaults}); the decider
 * records the result on {@code model_call.started.v1}, so a replay knows what each call asked for and a call made
 * again after a crash asks for the same.
 */
public final class ModelChoices {
    private ModelChoices() {
    }

    /**
     * The event that records a person's choice, or why it is refused (the gateway checks the same first; an input
     * written by another client meets the rule here).
     */
    public static Result choose(String model, Sampling sampling, String by) {
        ModelChoice choice = new ModelChoice(model, sampling);
        String problem = choice.problem();
        if (problem != null) {
            return new Result(null, problem);
        }
        return new Result(new ModelSettingsChanged(choice.model(), Sampling.orNull(choice.sampling()), by), null);
    }

    /** A choice recorded ({@code event}) or refused ({@code refusal}); exactly one of the two is set. */
    public record Result(ModelSettingsChanged event, String refusal) {
    }

    /** Whether a session's creator chose anything of a model: only then is there a choice to record. */
    public static boolean chosen(String model, Sampling sampling) {
        return !new ModelChoice(model, sampling).unset();
    }

    /**
     * What the session's next model call asks for: each layer's choice where the one above it made none; null when no
     * layer chose anything (only where the installation's defaults are unknown, as in tests): the client's settings.
     */
    public static ModelChoice asked(SessionState state, ModelChoice defaults) {
        Optional<Preset> preset = Presets.find(state.context().preset());
        ModelChoice presets = new ModelChoice(null,
                new Sampling(preset.map(Preset::temperature).orElse(null), null, null));
        ModelChoice asked = state.models().chosen().over(presets).over(defaults);
        return asked.unset() ? null : asked;
    }
}
