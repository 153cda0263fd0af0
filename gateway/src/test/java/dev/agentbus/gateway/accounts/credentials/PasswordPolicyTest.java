package dev.agentbus.gateway.accounts.credentials;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** NIST SP 800-63B's rules for a new password, as {@link PasswordPolicy} words them. */
class PasswordPolicyTest {
    private final PasswordPolicy policy = new PasswordPolicy(12);

    @Test
    void blank_and_whitespace_only_passwords_are_refused() {
        assertThat(policy.check("            ", "alice")).hasValueSatisfying(m -> assertThat(m).contains("blank"));
        assertThat(policy.check("\t\t\t\t\t\t\t\t\t\t\t\t", "alice")).isPresent();
        assertThat(policy.check(null, "alice")).isPresent();
    }

    @Test
    void the_username_or_the_username_with_a_few_characters_around_it_is_refused() {
        assertThat(policy.check("alicealice12", "alice")).hasValueSatisfying(m -> assertThat(m).contains("username"));
        assertThat(policy.check("ALICE2026!!!", "alice")).isPresent();
        assertThat(policy.check("  alice  alice  ", "alice")).isPresent();
        assertThat(policy.check("alice-password-123", "alice")).as("a long password that names her").isEmpty();
        assertThat(policy.check("my cat is called alice", "alice")).isEmpty();
    }

    @Test
    void common_passwords_are_refused_whatever_their_case() {
        assertThat(PasswordPolicy.commonCount()).isGreaterThan(500);
        for (String common : new String[]{"password1234", "PASSWORD1234", "qwertyuiop123", "123456789012",
                "iloveyou2024", "aaaaaaaaaaaa", "1q2w3e4r5t6y"}) {
            assertThat(policy.check(common, "someone")).as(common)
                    .hasValueSatisfying(m -> assertThat(m).contains("common"));
        }
    }

    @Test
    void length_limits_and_a_good_password() {
        assertThat(policy.check("short one", "bob")).hasValueSatisfying(m -> assertThat(m).contains("at least 12"));
        assertThat(policy.check("x".repeat(1025), "bob")).hasValueSatisfying(m -> assertThat(m).contains("at most"));
        assertThat(policy.check("correct horse battery staple", "bob")).isEmpty();
    }
}
