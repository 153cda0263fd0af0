package dev.agentbus.gateway.websocket;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** How a client's whole message is read: commands, plain chat text, binary uploads, and every malformed shape. */
class FramesTest {

    private static byte[] binary(String header, byte[] content) {
        return BinaryUploads.message(header, content);
    }

    @Test
    void a_json_object_is_a_command_with_its_id_and_arguments() {
        Frame frame = Frames.text("{\"id\": 42, \"command\": \"read_file\", \"args\": {\"path\": \"a.txt\"}}");

        assertThat(frame).isInstanceOfSatisfying(Frame.Command.class, c -> {
            assertThat(c.id().asInt()).isEqualTo(42);
            assertThat(c.name()).isEqualTo("read_file");
            assertThat(c.args().path("path").asText()).isEqualTo("a.txt");
            assertThat(c.payload()).isNull();
        });
    }

    @Test
    void without_args_the_arguments_are_an_empty_object_and_without_id_there_is_none() {
        Frame frame = Frames.text("  {\"command\":\"get_memory\"}");

        assertThat(frame).isInstanceOfSatisfying(Frame.Command.class, c -> {
            assertThat(c.id()).isNull();
            assertThat(c.args().isEmpty()).isTrue();
        });
    }

    @Test
    void plain_text_is_a_chat_message_as_in_os_agent() {
        Frame frame = Frames.text("Hello, what is in my workspace?");

        assertThat(frame).isInstanceOfSatisfying(Frame.Command.class, c -> {
            assertThat(c.name()).isEqualTo("chat");
            assertThat(c.args().path("prompt").asText()).isEqualTo("Hello, what is in my workspace?");
        });
    }

    @Test
    void text_starting_with_a_brace_must_be_valid_json() {
        assertThat(Frames.text("{\"command\": \"list_dir\",")).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).startsWith("the message starts with '{' but is not valid JSON: "));
    }

    @Test
    void an_empty_message_is_malformed() {
        assertThat(Frames.text("   ")).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).startsWith("the message is empty"));
    }

    @Test
    void a_command_needs_a_name_and_object_arguments_and_a_plain_id() {
        assertThat(Frames.text("{\"id\":\"x\",\"args\":{}}")).isInstanceOfSatisfying(Frame.Malformed.class, m -> {
            assertThat(m.id().asText()).as("the id is kept for the error").isEqualTo("x");
            assertThat(m.message()).startsWith("command is required");
        });
        assertThat(Frames.text("{\"command\":7}")).isInstanceOf(Frame.Malformed.class);
        assertThat(Frames.text("{\"command\":\"read_file\",\"args\":\"a.txt\"}"))
                .isInstanceOfSatisfying(Frame.Malformed.class, m -> {
                    assertThat(m.command()).isEqualTo("read_file");
                    assertThat(m.message()).isEqualTo("args must be a JSON object");
                });
        assertThat(Frames.text("{\"command\":\"read_file\",\"id\":{\"a\":1}}"))
                .isInstanceOfSatisfying(Frame.Malformed.class,
                        m -> assertThat(m.message()).isEqualTo("id must be a string or a number"));
    }

    @Test
    void a_binary_message_is_a_header_length_a_json_header_and_the_raw_bytes() {
        byte[] content = {0, 1, 2, (byte) 255};

        Frame frame = Frames.binary(binary("{\"command\":\"upload_document\",\"file_name\":\"d.bin\",\"id\":\"u1\"}",
                content));

        assertThat(frame).isInstanceOfSatisfying(Frame.Command.class, c -> {
            assertThat(c.name()).isEqualTo("upload_document");
            assertThat(c.id().asText()).isEqualTo("u1");
            assertThat(c.args().path("file_name").asText()).isEqualTo("d.bin");
            assertThat(c.payload()).isEqualTo(content);
        });
    }

    @Test
    void the_file_name_may_also_be_in_args_with_a_path() {
        Frame frame = Frames.binary(binary("{\"command\":\"upload_document\",\"args\":{\"file_name\":\"a.txt\","
                + "\"path\":\"in/a.txt\"}}", new byte[0]));

        assertThat(frame).isInstanceOfSatisfying(Frame.Command.class, c -> {
            assertThat(c.args().path("path").asText()).isEqualTo("in/a.txt");
            assertThat(c.payload()).isEmpty();
        });
    }

    @Test
    void a_binary_message_too_short_for_its_header_length_is_malformed() {
        assertThat(Frames.binary(new byte[]{0, 0, 1})).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).contains("has only 3 bytes"));
    }

    @Test
    void a_header_length_past_the_end_or_over_the_header_limit_is_malformed() {
        byte[] shortOne = ByteBuffer.allocate(11).putInt(100).put("{\"a\":1}".getBytes(StandardCharsets.UTF_8))
                .array();
        assertThat(Frames.binary(shortOne)).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).isEqualTo("the first 4 bytes announce a header of 100 bytes, but only "
                        + "7 bytes follow"));
        byte[] huge = ByteBuffer.allocate(8).putInt(Frames.MAX_HEADER_BYTES + 1).array();
        assertThat(Frames.binary(huge)).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).contains("is not between 2 and " + Frames.MAX_HEADER_BYTES));
        byte[] negative = ByteBuffer.allocate(8).putInt(-1).array();
        assertThat(Frames.binary(negative)).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).contains("4294967295"));
    }

    @Test
    void a_header_that_is_not_json_or_not_an_upload_is_malformed() {
        assertThat(Frames.binary(binary("not json", new byte[1]))).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).startsWith("the header of the binary message is not valid JSON"));
        assertThat(Frames.binary(binary("[1,2]", new byte[1]))).isInstanceOfSatisfying(Frame.Malformed.class,
                m -> assertThat(m.message()).isEqualTo("the header of the binary message is not a JSON object"));
        assertThat(Frames.binary(binary("{\"command\":\"vm_execute\"}", new byte[1])))
                .isInstanceOfSatisfying(Frame.Malformed.class, m -> {
                    assertThat(m.command()).isEqualTo("vm_execute");
                    assertThat(m.message()).contains("must be upload_document");
                });
    }
}
