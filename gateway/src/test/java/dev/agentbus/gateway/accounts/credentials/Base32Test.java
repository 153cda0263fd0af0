package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Base32Test {

    /** RFC 4648 section 10, without the padding this encoder leaves out. */
    @ParameterizedTest
    @CsvSource(value = {"'',''", "f,MY", "fo,MZXQ", "foo,MZXW6", "foob,MZXW6YQ", "fooba,MZXW6YTB", "foobar,MZXW6YTBOI"})
    void the_rfc_4648_test_vectors_encode_without_padding_and_decode_back(String plain, String encoded) {
        byte[] bytes = plain.getBytes(StandardCharsets.US_ASCII);
        assertThat(Base32.encode(bytes)).isEqualTo(encoded);
        assertThat(Base32.decode(encoded)).isEqualTo(bytes);
    }

    @Test
    void decoding_ignores_padding_case_and_spaces() {
        byte[] foobar = "foobar".getBytes(StandardCharsets.US_ASCII);
        assertThat(Base32.decode("MZXW6YTBOI======")).isEqualTo(foobar);
        assertThat(Base32.decode("mzxw6ytboi")).isEqualTo(foobar);
        assertThat(Base32.decode("mzxw 6ytb oi")).isEqualTo(foobar);
        assertThat(Base32.decode("MZXW6YQ=")).isEqualTo("foob".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void random_bytes_of_every_length_round_trip() {
        SecureRandom random = new SecureRandom();
        for (int length = 0; length <= 64; length++) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            assertThat(Base32.decode(Base32.encode(bytes))).isEqualTo(bytes);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"MZ1Q", "MZ0Q", "MZ8Q", "MZXW6!", "MZ-XQ", "MZXÉ"})
    void characters_outside_the_alphabet_are_refused(String text) {
        assertThatThrownBy(() -> Base32.decode(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"M", "MZX", "MZXW6Y"})
    void lengths_no_encoder_produces_are_refused(String text) {
        assertThatThrownBy(() -> Base32.decode(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
