package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SecretTokensTest {

    @Test
    void a_token_is_the_prefix_and_43_base64url_characters_without_padding() {
        String apiKey = SecretTokens.newToken(SecretTokens.API_KEY_PREFIX);
        String login = SecretTokens.newToken(SecretTokens.LOGIN_PREFIX);

        assertThat(apiKey).startsWith("ab_").hasSize(3 + 43).matches("ab_[A-Za-z0-9_-]{43}");
        assertThat(login).startsWith("ls_").hasSize(3 + 43).matches("ls_[A-Za-z0-9_-]{43}");
        assertThat(Base64.getUrlDecoder().decode(apiKey.substring(3))).hasSize(32);
    }

    @Test
    void tokens_are_all_different() {
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            tokens.add(SecretTokens.newToken("ab_"));
        }
        assertThat(tokens).hasSize(1000);
    }

    @Test
    void sha256_hex_of_abc_is_the_fips_180_test_vector() {
        assertThat(SecretTokens.sha256Hex("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void the_stored_hash_is_deterministic_and_covers_the_prefix() {
        String token = SecretTokens.newToken("ab_");

        assertThat(SecretTokens.sha256Hex(token)).isEqualTo(SecretTokens.sha256Hex(token)).matches("[0-9a-f]{64}");
        assertThat(SecretTokens.sha256Hex("ls_" + token.substring(3))).isNotEqualTo(SecretTokens.sha256Hex(token));
    }
}
