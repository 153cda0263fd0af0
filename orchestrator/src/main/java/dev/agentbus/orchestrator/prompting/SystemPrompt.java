package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.context.Preset;
import dev.agentbus.events.context.Presets;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.orchestrator.deciding.planning.PlanningText;
import dev.agentbus.orchestrator.deciding.remembering.InsightSelection;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * The system prompt of a model call, in this order:
 * <ol>
 *   <li>the base prompt: the session's own ({@code system_prompt.changed.v1}), else the installation's
 *       ({@code agentbus.agent.system-prompt}), else the built-in one;</li>
 *   <li>the session's preset, if it has one;</li>
 *   <li>the current time;</li>
 *   <li>the personality file {@code .soul.md}, then the project files {@code AGENTS.md} and {@code .agentbus.md}, as
 *       last reported from the workspace;</li>
 *   <li>the user's memory document and the insights chosen for the turn ({@code insights.injected.v1}), unless a
 *       text above placed them with {@code {memories}};</li>
 *   <li>the plan, the open todos and the task state, when the agent keeps any.</li>
 * </ol>
 * The template variables {@code {date}}, {@code {time}}, {@code {day}}, {@code {model}}, {@code {user}} and
 * {@code {memories}} are filled in the base prompt and the preset (not in the workspace's files: they are the
 * project's text, quoted as written). Pure, like the rest of the prompt.
 */
final class SystemPrompt {
    private SystemPrompt() {
    }

    static String build(String installationPrompt, SessionState state, Instant now, String model) {
        ContextState c = state.context();
        String memory = memories(state);
        String base = c.systemPrompt() != null ? c.systemPrompt() : installationPrompt;
        String preset = Presets.find(c.preset()).map(Preset::prompt).orElse(null);
        boolean memoryPlaced = base.contains("{memories}") || (preset != null && preset.contains("{memories}"));

        StringBuilder sb = new StringBuilder(fill(base, now, model, state.userId(), memory));
        if (preset != null) {
            sb.append("\n\n").append(fill(preset, now, model, state.userId(), memory));
        }
        sb.append("\n\nThe current time is ").append(now).append(" (UTC).");
        for (ContextFile f : c.files()) {
            sb.append("\n\n").append(f.isSoul()
                    ? "Your personality and standing instructions (" + f.name() + " in the workspace):"
                    : "Project instructions (" + f.name() + " in the workspace):");
            sb.append('\n').append(f.content().strip());
            if (f.truncated()) {
                sb.append("\n[… the rest of ").append(f.name()).append(" was cut: it is longer than the limit]");
            }
        }
        if (!memoryPlaced && !memory.isEmpty()) {
            sb.append("\n\nWhat you remember about this user:\n").append(memory);
        }
        sb.append(PlanningText.promptSection(state.planning()));
        return sb.toString();
    }

    /**
     * What {@code {memories}} stands for: the user's memory document, then the insights recorded for this turn
     * ({@code insights.injected.v1}), one line each. Both come from the log, so a replay renders the same text.
     */
    static String memories(SessionState state) {
        String document = state.memory() == null ? "" : state.memory().strip();
        String insights = InsightSelection.render(state.context().insights());
        if (insights.isEmpty()) {
            return document;
        }
        String learned = "What you have learned about the user in earlier conversations:\n" + insights;
        return document.isEmpty() ? learned : document + "\n\n" + learned;
    }

    /** Fills the template variables; an unknown {@code {word}} stays as written. */
    static String fill(String template, Instant now, String model, String user, String memories) {
        if (template.indexOf('{') < 0) {
            return template;
        }
        ZonedDateTime t = now.atZone(ZoneOffset.UTC);
        return template.replace("{date}", t.toLocalDate().toString())
                .replace("{time}", t.format(DateTimeFormatter.ofPattern("HH:mm")) + " UTC")
                .replace("{day}", t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH))
                .replace("{model}", model == null || model.isBlank() ? "an unnamed model" : model)
                .replace("{user}", user == null ? "the user" : user)
                .replace("{memories}", memories.isEmpty() ? "(nothing remembered yet)" : memories);
    }
}
