package dev.agentbus.api;

import dev.agentbus.events.context.Preset;

/**
 * One preset in {@code GET /api/v1/presets}: what a client sends as {@code "preset"} ({@code name}), a human name, what
 * it is for, its text with the template variables still in it, and the temperature it asks for (null: none).
 */
public record PresetView(String name, String title, String description, String prompt, Double temperature) {
    public static PresetView of(Preset p) {
        return new PresetView(p.name(), p.title(), p.description(), p.prompt(), p.temperature());
    }
}
