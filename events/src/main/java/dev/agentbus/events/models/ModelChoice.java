package dev.agentbus.events.models;

/**
 * A model and how to sample it. A session's own choice ({@code model_settings.changed.v1}) and what one model call
 * asked for ({@code model_call.started.v1}) both have this shape. The layers, highest first: the session's choice,
 * the temperature of the session's preset, the user's settings ({@code PUT /api/v1/me/model}), the installation's
 * ({@code llm.*}); {@link #over} stacks two of them.
 *
 * @param model    the model's name on the server; null: not chosen here (for a call: the server's first model)
 * @param sampling never null; its null fields are not chosen here (for a call: not sent, the server's default)
 */
public record ModelChoice(String model, Sampling sampling) {
    public static final ModelChoice NONE = new ModelChoice(null, Sampling.NONE);
    /** The longest model name taken, by the gateway and the decider alike. */
    public static final int MAX_MODEL_CHARS = 200;

    public ModelChoice {
        model = model == null || model.isBlank() ? null : model.strip();
        sampling = sampling == null ? Sampling.NONE : sampling;
    }

    /** Nothing chosen. Not a bean getter, so it never shows in the JSON. */
    public boolean unset() {
        return model == null && sampling.unset();
    }

    /** Each part of this, where it is chosen, else the one of {@code lower}. */
    public ModelChoice over(ModelChoice lower) {
        if (lower == null) {
            return this;
        }
        return new ModelChoice(model != null ? model : lower.model, sampling.over(lower.sampling));
    }

    /** What is wrong with this choice, for the person who made it; null when nothing is. */
    public String problem() {
        if (model != null && model.length() > MAX_MODEL_CHARS) {
            return "model must be at most " + MAX_MODEL_CHARS + " characters";
        }
        return sampling.problem();
    }
}
