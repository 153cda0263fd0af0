package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.context.Preset;
import dev.agentbus.events.context.Presets;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.orchestrator.deciding.models.ModelChoices;

import java.util.Optional;

/**
 * The session's own settings a person chooses, at creation or later: its system prompt (a preset, a text of its
 * own) and its model and sampling. Each is recorded, or refused with the reason.
 */
final class SessionSettings {
    /** The most a session's own system prompt may have; the gateway refuses longer ones before they get here. */
    static final int MAX_SYSTEM_PROMPT_CHARS = 16_000;

    /**
     * Records the session's own system prompt, or refuses it (false): a preset must exist, and a text of the
     * session's own must fit. Blank parts mean none.
     */
    static boolean setSystemPrompt(Step step, String preset, String systemPrompt, String by) {
        Optional<Preset> found = Presets.find(preset);
        if (!blank(preset) && found.isEmpty()) {
            step.reject("unknown preset '" + preset.strip() + "'; the presets are "
                    + Presets.names());
            return false;
        }
        if (systemPrompt != null && systemPrompt.length() > MAX_SYSTEM_PROMPT_CHARS) {
            step.reject("the system prompt is longer than " + MAX_SYSTEM_PROMPT_CHARS + " characters");
            return false;
        }
        step.emit(new SystemPromptChanged(found.map(Preset::name).orElse(null),
                blank(systemPrompt) ? null : systemPrompt.strip(), by));
        return true;
    }

    /** Records the session's own model and sampling, or refuses them (false) with the reason. */
    static boolean chooseModel(Step step, String model, Sampling sampling, String by) {
        ModelChoices.Result r = ModelChoices.choose(model, sampling, by);
        if (r.refusal() != null) {
            step.reject(r.refusal());
            return false;
        }
        step.emit(r.event());
        return true;
    }

    private SessionSettings() {
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
