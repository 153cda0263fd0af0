package dev.agentbus.cli.render;

import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;

import java.util.ArrayList;
import java.util.List;

/** A model and its sampling in one short line, for the timeline, a turn's output and {@code agentbus show}. */
public final class ModelText {
    private ModelText() {
    }

    /** A session's own choice; nothing chosen reads as going back to the defaults. */
    public static String chosen(String model, Sampling sampling) {
        ModelChoice choice = new ModelChoice(model, sampling);
        return choice.unset() ? "back to the user's and the installation's" : describe(choice, "the default model");
    }

    /** A session's own choice as the gateway shows it ({@code model.chosen} of the session view). */
    public static String of(dev.agentbus.api.SessionModel.Settings chosen) {
        return describe(new ModelChoice(chosen.model(), new Sampling(chosen.temperature(), chosen.topP(),
                chosen.maxTokens())), "the default model");
    }

    /** What a model call asked for. */
    public static String asked(ModelChoice asked) {
        return describe(asked, "the server's first model");
    }

    private static String describe(ModelChoice c, String noModel) {
        List<String> parts = new ArrayList<>();
        parts.add(c.model() == null ? noModel : c.model());
        Sampling s = c.sampling();
        if (s.temperature() != null) {
            parts.add("temperature " + s.temperature());
        }
        if (s.topP() != null) {
            parts.add("top-p " + s.topP());
        }
        if (s.maxTokens() != null) {
            parts.add("max " + s.maxTokens() + " tokens");
        }
        return String.join(", ", parts);
    }
}
