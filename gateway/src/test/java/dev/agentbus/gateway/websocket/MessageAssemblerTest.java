package dev.agentbus.gateway.websocket;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static dev.agentbus.gateway.websocket.MessageAssembler.Kind.BINARY;
import static dev.agentbus.gateway.websocket.MessageAssembler.Kind.CONTINUATION;
import static dev.agentbus.gateway.websocket.MessageAssembler.Kind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

/** Fragments joined into messages, each held to its limit before any of it is handed on. */
class MessageAssemblerTest {
    private final MessageAssembler assembler = new MessageAssembler(10, 20);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void a_single_frame_is_a_whole_message() {
        assertThat(assembler.accept(TEXT, true, bytes("hello"))).isInstanceOfSatisfying(
                MessageAssembler.Result.Complete.class, c -> {
                    assertThat(c.kind()).isEqualTo(TEXT);
                    assertThat(c.bytes()).isEqualTo(bytes("hello"));
                });
    }

    @Test
    void fragments_are_joined_and_handed_on_only_with_the_last_one() {
        assertThat(assembler.accept(BINARY, false, bytes("abc"))).isInstanceOf(MessageAssembler.Result.Partial.class);
        assertThat(assembler.accept(CONTINUATION, false, bytes("def")))
                .isInstanceOf(MessageAssembler.Result.Partial.class);

        assertThat(assembler.accept(CONTINUATION, true, bytes("g"))).isInstanceOfSatisfying(
                MessageAssembler.Result.Complete.class, c -> {
                    assertThat(c.kind()).isEqualTo(BINARY);
                    assertThat(c.bytes()).isEqualTo(bytes("abcdefg"));
                });
    }

    @Test
    void text_and_binary_messages_have_their_own_limits() {
        assertThat(assembler.accept(TEXT, true, bytes("x".repeat(10))))
                .isInstanceOf(MessageAssembler.Result.Complete.class);
        assertThat(assembler.accept(TEXT, true, bytes("x".repeat(11)))).isEqualTo(
                new MessageAssembler.Result.TooLarge(TEXT, 11, 10));
        assertThat(assembler.accept(BINARY, true, new byte[20])).isInstanceOf(MessageAssembler.Result.Complete.class);
        assertThat(assembler.accept(BINARY, true, new byte[21])).isEqualTo(
                new MessageAssembler.Result.TooLarge(BINARY, 21, 20));
    }

    @Test
    void a_message_over_its_limit_across_fragments_is_refused_at_the_fragment_that_crosses_it() {
        assembler.accept(TEXT, false, bytes("123456"));

        assertThat(assembler.accept(CONTINUATION, false, bytes("7890A"))).isEqualTo(
                new MessageAssembler.Result.TooLarge(TEXT, 11, 10));
        assertThat(assembler.accept(CONTINUATION, true, bytes("rest")))
                .as("the rest of the refused message is dropped").isInstanceOf(MessageAssembler.Result.Partial.class);
        assertThat(assembler.accept(TEXT, true, bytes("next"))).as("the next message starts afresh")
                .isInstanceOf(MessageAssembler.Result.Complete.class);
    }
}
