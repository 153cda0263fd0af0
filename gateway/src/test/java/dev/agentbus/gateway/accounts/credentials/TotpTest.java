package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TotpTest {
    /** The RFC 6238 Appendix B seeds: the ASCII digits 1234567890 repeated to 20, 32 and 64 bytes. */
    private static byte[] seed(String hmacAlgorithm) {
        String digits = "1234567890".repeat(7);
        int length = switch (hmacAlgorithm) {
            case "HmacSHA1" -> 20;
            case "HmacSHA256" -> 32;
            case "HmacSHA512" -> 64;
            default -> throw new IllegalArgumentException(hmacAlgorithm);
        };
        return digits.substring(0, length).getBytes(StandardCharsets.US_ASCII);
    }

    /** Every row of RFC 6238 Appendix B's table of test vectors (8 digits). */
    @ParameterizedTest(name = "{0} s, {1}: {2}")
    @CsvSource({
            "59, HmacSHA1, 94287082",
            "59, HmacSHA256, 46119246",
            "59, HmacSHA512, 90693936",
            "1111111109, HmacSHA1, 07081804",
            "1111111109, HmacSHA256, 68084774",
            "1111111109, HmacSHA512, 25091201",
            "1111111111, HmacSHA1, 14050471",
            "1111111111, HmacSHA256, 67062674",
            "1111111111, HmacSHA512, 99943326",
            "1234567890, HmacSHA1, 89005924",
            "1234567890, HmacSHA256, 91819424",
            "1234567890, HmacSHA512, 93441116",
            "2000000000, HmacSHA1, 69279037",
            "2000000000, HmacSHA256, 90698825",
            "2000000000, HmacSHA512, 38618901",
            "20000000000, HmacSHA1, 65353130",
            "20000000000, HmacSHA256, 77737706",
            "20000000000, HmacSHA512, 47863826"
    })
    void the_rfc_6238_test_vectors_give_the_published_codes(long epochSecond, String hmacAlgorithm, String code) {
        long step = Totp.step(Instant.ofEpochSecond(epochSecond));
        assertThat(Totp.code(seed(hmacAlgorithm), step, 8, hmacAlgorithm)).isEqualTo(code);
    }

    /** RFC 4226 Appendix D: HOTP values for counters 0 to 9, which TOTP computes with the step as counter. */
    @ParameterizedTest(name = "counter {0}: {1}")
    @CsvSource({"0, 755224", "1, 287082", "2, 359152", "3, 969429", "4, 338314",
            "5, 254676", "6, 287922", "7, 162583", "8, 399871", "9, 520489"})
    void the_rfc_4226_test_vectors_give_the_published_six_digit_codes(long counter, String code) {
        assertThat(Totp.code(seed("HmacSHA1"), counter, 6, "HmacSHA1")).isEqualTo(code);
    }

    @Test
    void a_step_is_thirty_seconds_since_the_epoch() {
        assertThat(Totp.step(Instant.ofEpochSecond(0))).isZero();
        assertThat(Totp.step(Instant.ofEpochSecond(29, 999_999_999))).isZero();
        assertThat(Totp.step(Instant.ofEpochSecond(30))).isEqualTo(1);
        assertThat(Totp.step(Instant.ofEpochSecond(59))).isEqualTo(1);
        assertThat(Totp.step(Instant.ofEpochSecond(1111111109))).isEqualTo(0x23523EC);
    }

    @Test
    void unsupported_lengths_and_algorithms_are_refused() {
        byte[] key = seed("HmacSHA1");
        assertThatThrownBy(() -> Totp.code(key, 1, 5, "HmacSHA1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Totp.code(key, 1, 10, "HmacSHA1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Totp.code(key, 1, 6, "HmacNope")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Totp.code(new byte[0], 1, 6, "HmacSHA1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_new_secret_is_160_random_bits_in_base32() {
        String secret = Totp.newSecret();

        assertThat(secret).matches("[A-Z2-7]{32}");
        assertThat(Base32.decode(secret)).hasSize(20);
        assertThat(Totp.newSecret()).isNotEqualTo(secret);
    }

    private static final String SECRET = Base32.encode(seed("HmacSHA1"));
    private static final Instant NOW = Instant.ofEpochSecond(1_700_000_015);

    private static String codeAt(long step) {
        return Totp.code(Base32.decode(SECRET), step, 6, "HmacSHA1");
    }

    @Test
    void a_code_from_the_current_step_is_accepted_and_its_step_returned() {
        long now = Totp.step(NOW);
        assertThat(Totp.matchingStep(SECRET, codeAt(now), NOW)).isEqualTo(OptionalLong.of(now));
    }

    @Test
    void a_code_from_the_previous_step_is_accepted() {
        long now = Totp.step(NOW);
        assertThat(Totp.matchingStep(SECRET, codeAt(now - 1), NOW)).isEqualTo(OptionalLong.of(now - 1));
    }

    @Test
    void a_code_from_the_next_step_is_accepted() {
        long now = Totp.step(NOW);
        assertThat(Totp.matchingStep(SECRET, codeAt(now + 1), NOW)).isEqualTo(OptionalLong.of(now + 1));
    }

    @Test
    void codes_two_steps_away_are_refused() {
        long now = Totp.step(NOW);
        // Guard against the one-in-a-million case of a far code equal to a near one, which would make this test lie.
        for (long far : new long[] {now - 2, now + 2}) {
            assertThat(codeAt(far)).isNotIn(codeAt(now - 1), codeAt(now), codeAt(now + 1));
            assertThat(Totp.matchingStep(SECRET, codeAt(far), NOW)).isEmpty();
        }
    }

    @Test
    void a_wrong_code_is_refused() {
        long now = Totp.step(NOW);
        String wrong = String.format("%06d", (Integer.parseInt(codeAt(now)) + 1) % 1_000_000);
        assertThat(wrong).isNotIn(codeAt(now - 1), codeAt(now + 1));
        assertThat(Totp.matchingStep(SECRET, wrong, NOW)).isEmpty();
    }

    @Test
    void the_secret_is_read_however_it_was_typed() {
        long now = Totp.step(NOW);
        String typed = SECRET.toLowerCase().replaceAll("(.{4})", "$1 ");
        assertThat(Totp.matchingStep(typed, codeAt(now), NOW)).isEqualTo(OptionalLong.of(now));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"12345", "1234567", "12345a", "12 345", " 123456", "-12345", "１２３４５６", "٠١٢٣٤٥"})
    void anything_but_exactly_six_ascii_digits_is_refused(String code) {
        assertThat(Totp.matchingStep(SECRET, code, NOW)).isEmpty();
    }

    @Test
    void the_eight_digit_form_of_a_valid_code_is_refused() {
        long now = Totp.step(NOW);
        String eight = Totp.code(Base32.decode(SECRET), now, 8, "HmacSHA1");
        assertThat(Totp.matchingStep(SECRET, eight, NOW)).isEmpty();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"not base32!", "0000", "M"})
    void a_bad_secret_matches_nothing(String secret) {
        assertThat(Totp.matchingStep(secret, "123456", NOW)).isEmpty();
    }

    @Test
    void the_otpauth_uri_names_issuer_account_and_defaults_with_spaces_as_percent_20() {
        String uri = Totp.otpauthUri("Agent Bus", "alice smith@example.com", "jbsw y3dp ehpk 3pxp");

        assertThat(uri).isEqualTo("otpauth://totp/Agent%20Bus:alice%20smith%40example.com"
                + "?secret=JBSWY3DPEHPK3PXP&issuer=Agent%20Bus&algorithm=SHA1&digits=6&period=30");
    }

    @Test
    void reserved_and_non_ascii_characters_in_the_label_are_percent_encoded() {
        String uri = Totp.otpauthUri("Agentbus: Prod", "jörg+1&x=y", "JBSWY3DPEHPK3PXP");

        assertThat(uri).startsWith("otpauth://totp/Agentbus%3A%20Prod:j%C3%B6rg%2B1%26x%3Dy?secret=JBSWY3DPEHPK3PXP"
                + "&issuer=Agentbus%3A%20Prod&");
    }

    @Test
    void a_uri_for_a_bad_secret_is_refused() {
        assertThatThrownBy(() -> Totp.otpauthUri("Agentbus", "alice", "not base32!"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
