package dev.agentbus.events.context;

/**
 * A named system prompt for a kind of work, as lm-chat's agent modes: the session's system prompt gets its text
 * (with the template variables filled in) after the installation's base prompt.
 *
 * @param name        what a client sends ({@code "preset": "code"}); lower case
 * @param title       a short human name
 * @param description one line on what it is for
 * @param prompt      the text; may use the template variables of {@link Presets#VARIABLES}
 */
public record Preset(String name, String title, String description, String prompt) {
}
