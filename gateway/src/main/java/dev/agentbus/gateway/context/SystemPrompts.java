package dev.agentbus.gateway.context;

import dev.agentbus.events.context.Preset;
import dev.agentbus.events.context.Presets;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpStatus;

/**
 * Checks a session's own system prompt as a client sends it, when the session is created and when it is changed: the
 * gateway answers a bad one at once, and the decider refuses it again for any other writer.
 */
public final class SystemPrompts {
    /** The same limit as the decider's: a system prompt rides along with every model call. */
    static final int MAX_CHARS = 16_000;

    private SystemPrompts() {
    }

    /** The preset's canonical name, null for none; 400 for a name that is no preset, 413 for a text too long. */
    public static String check(String preset, String systemPrompt) {
        String name = null;
        if (preset != null && !preset.isBlank()) {
            name = Presets.find(preset).map(Preset::name).orElseThrow(() -> ApiException.badRequest(
                    "unknown preset '" + preset.strip() + "'; the presets are " + Presets.names()
                            + " (GET /api/v1/presets)"));
        }
        if (systemPrompt != null && systemPrompt.length() > MAX_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "systemPrompt is longer than " + MAX_CHARS + " characters");
        }
        return name;
    }
}
