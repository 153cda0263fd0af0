package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PasswordHasherTest {
    /**
     * What the reference implementation (github.com/P-H-C/phc-winner-argon2) prints for
     * {@code echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1 -l 32 -e}: Argon2id v=19, password "password",
     * salt "somesalt" (ASCII), 64 MiB, 2 passes, 1 lane, 32-byte output.
     */
    private static final String REFERENCE =
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";

    private final PasswordHasher hasher = PasswordHasher.owasp();

    @Test
    void a_hash_from_the_reference_implementation_verifies() {
        assertThat(hasher.verify("password", REFERENCE)).isTrue();
        assertThat(hasher.verify("wrong", REFERENCE)).isFalse();
    }

    @Test
    void a_hash_is_a_phc_string_with_the_owasp_cost_and_verifies_its_own_password_only() {
        String encoded = hasher.hash("correct horse battery staple");

        // 16-byte salt and 32-byte hash in unpadded base64: 22 and 43 characters.
        assertThat(encoded).matches("\\$argon2id\\$v=19\\$m=19456,t=2,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}");
        assertThat(hasher.verify("correct horse battery staple", encoded)).isTrue();
        assertThat(hasher.verify("correct horse battery stapl", encoded)).isFalse();
        assertThat(hasher.verify("", encoded)).isFalse();
    }

    @Test
    void non_ascii_passwords_round_trip() {
        String encoded = hasher.hash("pässwörd 🔑");
        assertThat(hasher.verify("pässwörd 🔑", encoded)).isTrue();
        assertThat(hasher.verify("passwort 🔑", encoded)).isFalse();
    }

    @Test
    void hashing_the_same_password_twice_gives_different_strings_because_of_the_salt() {
        String first = hasher.hash("password");
        String second = hasher.hash("password");

        assertThat(first).isNotEqualTo(second);
        assertThat(hasher.verify("password", first)).isTrue();
        assertThat(hasher.verify("password", second)).isTrue();
    }

    @Test
    void verify_uses_the_cost_in_the_string_not_the_hashers_own() {
        PasswordHasher cheap = new PasswordHasher(new PasswordHasher.Cost(1024, 1, 1));
        String encoded = cheap.hash("password");

        assertThat(encoded).startsWith("$argon2id$v=19$m=1024,t=1,p=1$");
        assertThat(hasher.verify("password", encoded)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
            "not a hash",
            // other variants and versions
            "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            // parts missing, reordered or extra
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ",
            "$argon2id$v=19$m=65536,t=2,p=1$$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$t=2,m=65536,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc$",
            " $argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            // numbers out of range: zero, too large for an int, beyond the guard rails
            "$argon2id$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=65536,t=2,p=0$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=4,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=9999999999,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=65536,t=1000000,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            // bad base64, and a salt shorter than Argon2's 8-byte minimum
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$C",
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNh$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc=="
    })
    void a_malformed_string_does_not_verify_and_does_not_throw(String encoded) {
        assertThat(hasher.verify("password", encoded)).isFalse();
        assertThat(hasher.needsRehash(encoded)).isTrue();
    }

    @Test
    void a_null_password_does_not_verify() {
        assertThat(hasher.verify(null, REFERENCE)).isFalse();
    }

    @Test
    void a_hash_needs_rehashing_only_when_its_cost_differs_from_the_hashers() {
        String current = hasher.hash("password");
        String weaker = new PasswordHasher(new PasswordHasher.Cost(1024, 1, 1)).hash("password");

        assertThat(hasher.needsRehash(current)).isFalse();
        assertThat(hasher.needsRehash(weaker)).isTrue();
        assertThat(hasher.needsRehash(REFERENCE)).isTrue();
        assertThat(new PasswordHasher(new PasswordHasher.Cost(65536, 2, 1)).needsRehash(REFERENCE)).isFalse();
    }

    @Test
    void the_owasp_cost_is_19_mib_two_passes_one_lane() {
        assertThat(PasswordHasher.Cost.OWASP).isEqualTo(new PasswordHasher.Cost(19456, 2, 1));
        assertThat(PasswordHasher.owasp().cost()).isEqualTo(PasswordHasher.Cost.OWASP);
    }

    @Test
    void costs_outside_the_guard_rails_are_refused() {
        assertThatThrownBy(() -> new PasswordHasher.Cost(7, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PasswordHasher.Cost(19456, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PasswordHasher.Cost(19456, 2, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PasswordHasher.Cost(2 * 1024 * 1024, 2, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
