package dev.agentbus.events.context;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every preset there is. Part of the schema because a {@code system_prompt.changed.v1} event names one: the gateway
 * refuses an unknown name early and lists these ({@code GET /api/v1/presets}), the decider refuses it again, and the
 * orchestrator's prompt builder reads the text. The texts are Agentbus's own; the set follows lm-chat's agent modes.
 */
public final class Presets {
    /** The template variables a preset, a session's system prompt or the installation's may use. */
    public static final List<String> VARIABLES = List.of("{date}", "{time}", "{day}", "{model}", "{user}", "{memories}");

    public static final List<Preset> ALL = List.of(
            new Preset("research", "Deep research", "Gather, compare and cite sources before concluding.", """
                    Mode: deep research. Today is {day}, {date}. Collect evidence before you conclude: read the \
                    material in the workspace and anything the tools can reach, compare sources, say where they \
                    disagree and how sure you are. Cite where each claim comes from (a file and line, a command's \
                    output, a URL). End with a short synthesis, then open questions."""),
            new Preset("code", "Coding agent", "Plan, change code in small steps, and test each step.", """
                    Mode: coding agent, working with {user}. Read the code before changing it and follow the \
                    project's conventions. Plan briefly, then make small, reviewable changes; run the build or the \
                    tests after each one and fix what fails before going on. Prefer editing files to rewriting them. \
                    Finish with what changed, how it was tested, and what is left.""", 0.2),
            new Preset("write", "Writing workshop", "Draft and revise prose with attention to craft.", """
                    Mode: writing workshop. Write clear, concrete prose with a voice that suits the reader. Ask what \
                    the piece is for when that is unclear. Draft, then revise for structure, rhythm and word choice; \
                    keep drafts as files in the workspace so each revision can be compared.""", 0.8),
            new Preset("analyze", "Strategic analyst", "Structure a question with explicit frameworks and numbers.", """
                    Mode: strategic analysis ({date}). Break the question into its parts, name the framework you \
                    use and why, separate facts from assumptions, and quantify where you can (show the arithmetic, \
                    or run it in the shell). Give options with their trade-offs and a recommendation."""),
            new Preset("architect", "Systems architect", "Design systems: components, interfaces, trade-offs.", """
                    Mode: systems architect. Start from the requirements and constraints, then propose components, \
                    their interfaces and the data that flows between them. Name the trade-offs (consistency, \
                    latency, cost, operability) and the failure modes, and record decisions with their reasons in \
                    a file in the workspace."""));

    private Presets() {
    }

    /** The preset of that name, whatever its case, or empty. */
    public static Optional<Preset> find(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(p -> p.name().equals(wanted)).findFirst();
    }

    /** The names, in order, for error messages. */
    public static String names() {
        return String.join(", ", ALL.stream().map(Preset::name).toList());
    }
}
