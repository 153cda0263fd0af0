package dev.agentbus.cli.chat;

import dev.agentbus.api.Memory;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.Text;

import java.util.Locale;

/**
 * Chat's {@code /memory}, {@code /memory set TEXT} and {@code /memory reset}: the person's memory document, which
 * belongs to them rather than to the session chat is on.
 */
final class MemoryCommands {
    private final Printer printer;
    private final GatewayClient gateway;

    MemoryCommands(Printer printer, GatewayClient gateway) {
        this.printer = printer;
        this.gateway = gateway;
    }

    void memory(String argument) {
        String[] parts = argument.split("\\s+", 2);
        switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "" -> {
                Memory doc = gateway.memory().get();
                String content = doc.content();
                if (Text.isBlank(content)) {
                    printer.println("memory is empty (set it with /memory set TEXT)");
                } else {
                    printer.println(content.strip());
                }
                printer.println(printer.dim(version(doc)));
            }
            case "set" -> {
                if (parts.length < 2 || parts[1].isBlank()) {
                    throw new Refused("usage: /memory set TEXT (to empty it: /memory reset)");
                }
                Memory doc = gateway.memory().set(parts[1].strip());
                printer.println("memory updated; it applies from the next turn (" + version(doc) + ")");
            }
            case "reset" -> {
                Memory doc = gateway.memory().reset();
                printer.println("memory reset (" + version(doc) + ")");
            }
            default -> throw new Refused("usage: /memory, /memory set TEXT, or /memory reset");
        }
    }

    private static String version(Memory doc) {
        return "version " + doc.version() + (doc.updatedAt() != null
                ? " · updated " + Text.localTime(doc.updatedAt()) : "");
    }
}
