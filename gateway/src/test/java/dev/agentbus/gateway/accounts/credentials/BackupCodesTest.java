package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackupCodesTest {

    @Test
    void generate_gives_the_number_of_codes_asked_for() {
        assertThat(BackupCodes.generate(10)).hasSize(10);
        assertThat(BackupCodes.generate(1)).hasSize(1);
        assertThat(BackupCodes.generate(0)).isEmpty();
    }

    @Test
    void a_negative_count_is_refused() {
        assertThatThrownBy(() -> BackupCodes.generate(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void codes_are_two_groups_of_four_unambiguous_lower_case_characters() {
        for (String code : BackupCodes.generate(200)) {
            assertThat(code).matches("[a-z2-9]{4}-[a-z2-9]{4}");
            assertThat(code).doesNotContain("0", "o", "1", "l", "i");
        }
    }

    @Test
    void every_character_of_the_alphabet_is_used() {
        Set<Character> seen = new HashSet<>();
        for (String code : BackupCodes.generate(500)) {
            for (char c : code.replace("-", "").toCharArray()) {
                seen.add(c);
            }
        }
        // 4000 draws from 31 characters: a missing one would mean a broken alphabet, not bad luck.
        assertThat(seen).hasSize(31);
    }

    @Test
    void codes_in_a_batch_are_all_different() {
        List<String> codes = BackupCodes.generate(1000);
        assertThat(new HashSet<>(codes)).hasSize(1000);
    }

    @Test
    void the_list_cannot_be_changed() {
        List<String> codes = BackupCodes.generate(2);
        assertThatThrownBy(() -> codes.add("k7fq-2xmp")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void normalize_ignores_case_spaces_and_dashes() {
        assertThat(BackupCodes.normalize("K7FQ 2XMP")).isEqualTo(BackupCodes.normalize("k7fq-2xmp"));
        assertThat(BackupCodes.normalize("k7fq-2xmp")).isEqualTo("k7fq2xmp");
        assertThat(BackupCodes.normalize(" k7fq – 2xmp\t")).isEqualTo("k7fq2xmp"); // en dash, as phones autocorrect
        assertThat(BackupCodes.normalize("k7fq\u00a02xmp")).isEqualTo("k7fq2xmp"); // no-break space
    }

    @Test
    void the_hash_is_the_sha_256_hex_of_the_normalized_code_and_deterministic() {
        String hash = BackupCodes.hash("k7fq-2xmp");

        assertThat(hash).matches("[0-9a-f]{64}");
        assertThat(BackupCodes.hash("k7fq-2xmp")).isEqualTo(hash);
        assertThat(BackupCodes.hash("K7FQ 2XMP")).isEqualTo(hash);
        assertThat(hash).isEqualTo(SecretTokens.sha256Hex("k7fq2xmp"));
        assertThat(BackupCodes.hash("k7fq-2xmq")).isNotEqualTo(hash);
    }
}
