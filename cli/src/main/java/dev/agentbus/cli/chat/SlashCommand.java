package dev.agentbus.cli.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One command of chat, such as {@code /whisper TEXT}: its name, how to call it, one line of help and what it does.
 * {@link SlashCommands} holds them; {@code /help} and tab completion are made from the same entries, so a new command
 * is one entry and cannot be missing from either.
 *
 * @param name    the name with its slash, lower case: {@code /whisper}
 * @param aliases other names that run it (not listed, not completed): {@code /exit} for {@code /quit}
 * @param help    the lines {@code /help} shows for it; the first is its usage, e.g. {@code /whisper TEXT}
 * @param choices words tab completion offers for its first argument, e.g. the modes of {@code /mode}
 * @param handler what it does with the rest of the line (stripped, "" when none)
 */
record SlashCommand(String name, List<String> aliases, List<HelpLine> help, List<String> choices, Handler handler) {

    /** One row of {@code /help}: a way to call the command and what it does. */
    record HelpLine(String usage, String text) {
    }

    /** What a command does; false means leave chat. */
    @FunctionalInterface
    interface Handler {
        boolean run(String argument);
    }

    /** What most commands do: something, after which chat goes on. */
    @FunctionalInterface
    interface Action {
        void run(String argument);
    }

    /**
     * Thrown by a handler that cannot do what was asked (an argument that does not fit, no session yet): the table
     * prints the message, or the command's usage when there is none, and chat goes on.
     */
    static final class Refused extends RuntimeException {
        /** Prints {@code usage: <the command's usage>}. */
        Refused() {
            super(null, null, false, false);
        }

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    SlashCommand {
        if (!name.startsWith("/") || !name.equals(name.toLowerCase(Locale.ROOT)) || name.contains(" ")) {
            throw new IllegalArgumentException("a command name is a slash and a lower-case word: " + name);
        }
        aliases = List.copyOf(aliases);
        help = List.copyOf(help);
        choices = List.copyOf(choices);
    }

    /** A command after which chat goes on: {@code of("/rename", "/rename TITLE", "rename the session", this::rename)}. */
    static SlashCommand of(String name, String usage, String help, Action action) {
        return new SlashCommand(name, List.of(), List.of(new HelpLine(usage, help)), List.of(), argument -> {
            action.run(argument);
            return true;
        });
    }

    /** A command that may end chat: its handler says whether to go on. */
    static SlashCommand leaving(String name, String usage, String help, Handler handler) {
        return new SlashCommand(name, List.of(), List.of(new HelpLine(usage, help)), List.of(), handler);
    }

    /** The same command, also run by these names. */
    SlashCommand alias(String... names) {
        List<String> all = new ArrayList<>(aliases);
        all.addAll(List.of(names));
        return new SlashCommand(name, all, help, choices, handler);
    }

    /** The same command, with one more row in {@code /help} (another way to call it). */
    SlashCommand also(String usage, String text) {
        List<HelpLine> all = new ArrayList<>(help);
        all.add(new HelpLine(usage, text));
        return new SlashCommand(name, aliases, all, choices, handler);
    }

    /** The same command, with words that tab completion offers for its first argument. */
    SlashCommand choices(String... words) {
        return new SlashCommand(name, aliases, help, List.of(words), handler);
    }

    /** The first help line's usage, as an error message shows it: {@code usage: /whisper TEXT}. */
    String usage() {
        return help.isEmpty() ? name : help.get(0).usage();
    }
}
