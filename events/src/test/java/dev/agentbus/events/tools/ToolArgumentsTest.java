package dev.agentbus.events.tools;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolArgumentsTest {
    @Test
    void a_long_value_such_as_an_uploaded_file_is_replaced_by_its_length() {
        String upload = "{\"path\":\"data/blob.bin\",\"content_base64\":\"" + "A".repeat(700_000) + "\"}";

        assertThat(ToolArguments.abbreviated(upload))
                .isEqualTo("{\"path\":\"data/blob.bin\",\"content_base64\":\"<700000 characters>\"}");
    }

    @Test
    void short_arguments_are_unchanged() {
        assertThat(ToolArguments.abbreviated("{\"path\":\"a.txt\",\"n\":3}")).isEqualTo("{\"path\":\"a.txt\",\"n\":3}");
    }

    @Test
    void text_that_is_not_an_object_is_cut() {
        assertThat(ToolArguments.abbreviated("x".repeat(300))).isEqualTo("x".repeat(200) + "… <300 characters>");
        assertThat(ToolArguments.abbreviated(null)).isEqualTo("{}");
    }
}
