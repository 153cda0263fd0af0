package dev.agentbus.gateway.websocket;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LineBufferTest {
    private final LineBuffer lines = new LineBuffer();

    @Test
    void pieces_become_whole_lines_with_their_newlines() {
        assertThat(lines.add("line one\nline ")).containsExactly("line one\n");
        assertThat(lines.add("tw")).isEmpty();
        assertThat(lines.add("o\n\nthree")).containsExactly("line two\n", "\n");
        assertThat(lines.rest()).isEqualTo("three");
        assertThat(lines.rest()).isEmpty();
    }
}
