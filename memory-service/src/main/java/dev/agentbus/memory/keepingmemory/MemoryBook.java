package dev.agentbus.memory.keepingmemory;

import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;

import java.time.Instant;

/** The rule for changing a memory document: each command gives the next version. Pure. */
final class MemoryBook {
    private MemoryBook() {
    }

    public static MemoryDocument apply(MemoryDocument current, MemoryCommand command, Instant now) {
        String content = switch (command) {
            case MemoryCommand.SetMemory set -> set.content() == null ? "" : set.content();
            case MemoryCommand.ResetMemory reset -> "";
        };
        return new MemoryDocument(command.userId(), content, current.version() + 1, now, command.commandId());
    }
}
