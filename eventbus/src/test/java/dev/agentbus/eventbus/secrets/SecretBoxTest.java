package dev.agentbus.eventbus.secrets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretBoxTest {
    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    @Test
    void a_sealed_secret_opens_for_its_owner_and_never_shows_in_the_sealed_form() {
        SecretBox box = SecretBox.load(new SecretSettings(KEY, ""));
        String sealed = box.seal("sk-live-123456", "ada");

        assertThat(sealed).startsWith("v1:").doesNotContain("sk-live");
        assertThat(box.open(sealed, "ada")).isEqualTo("sk-live-123456");
        assertThat(box.seal("sk-live-123456", "ada")).as("a fresh nonce each time").isNotEqualTo(sealed);
    }

    @Test
    void a_sealed_secret_does_not_open_for_another_owner_with_another_key_or_when_changed() {
        SecretBox box = SecretBox.load(new SecretSettings(KEY, ""));
        String sealed = box.seal("sk-live-123456", "ada");
        byte[] other = new byte[32];
        other[0] = 1;

        assertThatThrownBy(() -> box.open(sealed, "mallory")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not open").hasMessageNotContaining("sk-live");
        assertThatThrownBy(() -> new SecretBox(other).open(sealed, "ada")).isInstanceOf(IllegalArgumentException.class);
        char last = sealed.charAt(sealed.length() - 3);
        String changed = sealed.substring(0, sealed.length() - 3) + (last == 'A' ? 'B' : 'A') + sealed.substring(sealed.length() - 2);
        assertThatThrownBy(() -> box.open(changed, "ada")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> box.open("plain", "ada")).hasMessage("not a sealed value");
        assertThatThrownBy(() -> box.open("v1:AAAA", "ada")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void without_a_configured_key_one_is_made_in_the_data_directory_for_the_owner_only_and_kept(@TempDir Path dir)
            throws Exception {
        SecretBox first = SecretBox.load(new SecretSettings("", dir.toString()));
        String sealed = first.seal("key", "ada");
        Path file = dir.resolve("secret-key");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(SecretBox.load(new SecretSettings("", dir.toString())).open(sealed, "ada"))
                .as("a second service on the same data directory").isEqualTo("key");
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void a_configured_key_that_is_not_32_bytes_of_base64_is_refused_with_how_to_make_one() {
        assertThatThrownBy(() -> SecretBox.load(new SecretSettings("not base64!", "")))
                .hasMessageContaining("AGENTBUS_SECRET_KEY").hasMessageContaining("base64");
        assertThatThrownBy(() -> SecretBox.load(new SecretSettings(Base64.getEncoder().encodeToString(new byte[16]),
                ""))).hasMessageContaining("32 bytes");
    }
}
