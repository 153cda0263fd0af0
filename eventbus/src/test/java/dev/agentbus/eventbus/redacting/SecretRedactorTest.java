package dev.agentbus.eventbus.redacting;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecretRedactorTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "openai key      | export OPENAI_KEY_X=1; echo sk-proj-abcdefghijklmnopqrstuvwx1234 | sk-proj-abcdefghijklmnopqrstuvwx1234",
            "github token    | token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here | ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "aws key id      | AKIAABCDEFGHIJKLMNOP | AKIAABCDEFGHIJKLMNOP",
            "slack token     | xoxb-1234567890-abcdefghij | xoxb-1234567890-abcdefghij",
            "google key      | key AIzaSyA1234567890abcdefghijklmnopqrstuv | AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "jwt             | eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U | dozjgNryP4J3jVmNHl0w5N",
            "bearer header   | Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456 | abcdefghijklmnopqrstuvwxyz123456",
            "url password    | postgres://app:hunter2secret@db:5432/app | hunter2secret",
            "env password    | DB_PASSWORD=hunter2secret | hunter2secret",
            "yaml api key    | api_key: 'abcd1234efgh' | abcd1234efgh",
            "json secret     | {\"client_secret\": \"s3cr3t-value\"} | s3cr3t-value",
    })
    void secrets_are_masked(String what, String text, String secret) {
        String out = SecretRedactor.redact(text);
        assertThat(out).doesNotContain(secret).contains(SecretRedactor.MASK);
    }

    @Test
    void a_private_key_block_is_masked_whole_and_the_markers_stay() {
        String key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----";
        String out = SecretRedactor.redact("id_rsa:\n" + key + "\ndone");
        assertThat(out).doesNotContain("b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=")
                .contains("-----BEGIN OPENSSH PRIVATE KEY-----").endsWith("done");
    }

    @Test
    void ordinary_output_is_left_alone() {
        String text = "total 8\n-rw-r--r-- 1 root root 3 hello.txt\nexit code: 0\ntokens: 12 prompt\nkey points: a, b";
        assertThat(SecretRedactor.redact(text)).isEqualTo(text);
        assertThat(SecretRedactor.redact(null)).isNull();
    }

    @Test
    void the_name_of_a_secret_stays_so_the_output_still_makes_sense() {
        assertThat(SecretRedactor.redact("GITHUB_TOKEN=abcdef123456")).isEqualTo("GITHUB_TOKEN=[REDACTED]");
    }
}
