package dev.agentbus.events.context;

/**
 * A named system prompt for a kind of work, as lm-chat's agent modes: the session's system prompt gets its text
 * (with the template variables filled in) after the installation's base prompt.
 *
 * @param name        what a client sends ({@code "preset": "code"}); lower case
 * @param title       a short human name
 * @param description one line on what it is for
 * @param prompt      the text; may use the template variables of {@link Presets#VARIABLES}
 * @param temperature the sampling temperature the kind of work wants, null for none: a session with this preset
 *                    gets it unless the session chose its own (it wins over the user's and the installation's)
 */
public record Preset(String name, String title, String description, String prompt, Double temperature) {
    /** A preset that leaves the temperature to the user and the installation. */
    public Preset(String name, String title, String description, String prompt) {
        this(name, title, description, prompt, null);
    }
}
