package dev.agentbus.cli.chat;

import dev.agentbus.cli.Printer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The table of chat's slash commands, in the order {@code /help} lists them. It parses a command line, runs the
 * command it names, and answers what tab completion offers. Everything a person can type after a slash is here, so
 * {@code /help}, completion and what runs cannot disagree.
 */
final class SlashCommands {
    private final List<SlashCommand> commands = new ArrayList<>();
    private final Map<String, SlashCommand> byName = new LinkedHashMap<>();

    /** Adds a command; a name (or alias) that is taken already is a programming error. */
    SlashCommands add(SlashCommand command) {
        List<String> names = new ArrayList<>(command.aliases());
        names.add(0, command.name());
        for (String name : names) {
            String key = name.toLowerCase(Locale.ROOT);
            if (byName.containsKey(key)) {
                throw new IllegalArgumentException("two slash commands are called " + name);
            }
        }
        names.forEach(name -> byName.put(name.toLowerCase(Locale.ROOT), command));
        commands.add(command);
        return this;
    }

    /** The command a name (any case, with its slash) runs, including aliases. */
    Optional<SlashCommand> find(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    List<SlashCommand> all() {
        return Collections.unmodifiableList(commands);
    }

    /**
     * Runs a line that starts with a slash: the first word names the command (any case), the rest, stripped, is its
     * argument. An unknown command or an argument that does not fit prints a message; chat goes on either way.
     * Returns false only when the command said to leave.
     */
    boolean run(String line, Printer printer) {
        String input = line.strip();
        String[] parts = input.split("\\s+", 2);
        String argument = parts.length > 1 ? parts[1].strip() : "";
        Optional<SlashCommand> command = find(parts[0]);
        if (command.isEmpty()) {
            printer.error("unknown command " + parts[0] + "; type /help for the list"
                    + " (to send a message starting with /, type // instead)");
            return true;
        }
        try {
            return command.get().handler().run(argument);
        } catch (SlashCommand.Refused e) {
            String message = e.getMessage();
            printer.error(message == null || message.isBlank() ? "usage: " + command.get().usage() : message);
            return true;
        }
    }

    /** The rows of {@code /help}: every command's help lines, usage and text. */
    List<SlashCommand.HelpLine> helpLines() {
        return commands.stream().flatMap(c -> c.help().stream()).toList();
    }

    /**
     * What tab completion offers for the word at {@code wordIndex} of a line split into {@code words}: the command
     * names starting with the first word (when it starts with a slash), or the first argument's choices of the
     * command the line starts with. Matching ignores case; aliases are not offered.
     */
    List<String> complete(List<String> words, int wordIndex) {
        String word = wordIndex < words.size() ? words.get(wordIndex) : "";
        String prefix = word.toLowerCase(Locale.ROOT);
        if (wordIndex == 0) {
            if (!word.startsWith("/")) {
                return List.of();
            }
            return commands.stream().map(SlashCommand::name).filter(n -> n.startsWith(prefix)).toList();
        }
        if (wordIndex == 1 && !words.isEmpty()) {
            return find(words.get(0)).map(c -> c.choices().stream()
                    .filter(choice -> choice.toLowerCase(Locale.ROOT).startsWith(prefix)).toList())
                    .orElse(List.of());
        }
        return List.of();
    }
}
