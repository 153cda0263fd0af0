package dev.agentbus.memory.keepingmemory;

import dev.agentbus.events.memory.MemoryCommand.ResetMemory;
import dev.agentbus.events.memory.MemoryCommand.SetMemory;
import dev.agentbus.events.memory.MemoryDocument;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryBookTest {
    private static final Instant EARLIER = Instant.parse("2026-11-20T08:00:00Z");
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void setting_memory_of_a_new_user_gives_version_1_with_the_content_and_command() {
        MemoryDocument next = MemoryBook.apply(MemoryDocument.empty("alice"),
                new SetMemory("cmd-1", "alice", "Prefers short answers."), NOW);

        assertThat(next).isEqualTo(new MemoryDocument("alice", "Prefers short answers.", 1, NOW, "cmd-1"));
    }

    @Test
    void setting_memory_replaces_the_content_and_gives_the_next_version() {
        MemoryDocument current = new MemoryDocument("alice", "old notes", 4, EARLIER, "cmd-4");

        MemoryDocument next = MemoryBook.apply(current, new SetMemory("cmd-5", "alice", "new notes"), NOW);

        assertThat(next.content()).isEqualTo("new notes");
        assertThat(next.version()).isEqualTo(5);
        assertThat(next.updatedAt()).isEqualTo(NOW);
        assertThat(next.lastCommandId()).isEqualTo("cmd-5");
        assertThat(next.userId()).isEqualTo("alice");
    }

    @Test
    void resetting_memory_empties_it_and_still_gives_the_next_version() {
        MemoryDocument current = new MemoryDocument("alice", "old notes", 4, EARLIER, "cmd-4");

        MemoryDocument next = MemoryBook.apply(current, new ResetMemory("cmd-5", "alice"), NOW);

        assertThat(next).isEqualTo(new MemoryDocument("alice", "", 5, NOW, "cmd-5"));
    }

    @Test
    void setting_null_content_stores_an_empty_document_not_null() {
        MemoryDocument current = new MemoryDocument("alice", "old notes", 2, EARLIER, "cmd-2");

        MemoryDocument next = MemoryBook.apply(current, new SetMemory("cmd-3", "alice", null), NOW);

        assertThat(next.content()).isEmpty();
        assertThat(next.version()).isEqualTo(3);
    }

    @Test
    void each_command_counts_even_when_the_content_does_not_change() {
        MemoryDocument doc = MemoryDocument.empty("alice");
        doc = MemoryBook.apply(doc, new SetMemory("cmd-1", "alice", "same"), NOW);
        doc = MemoryBook.apply(doc, new SetMemory("cmd-2", "alice", "same"), NOW);
        doc = MemoryBook.apply(doc, new ResetMemory("cmd-3", "alice"), NOW);
        doc = MemoryBook.apply(doc, new ResetMemory("cmd-4", "alice"), NOW);

        assertThat(doc.version()).isEqualTo(4);
        assertThat(doc.lastCommandId()).isEqualTo("cmd-4");
    }
}
