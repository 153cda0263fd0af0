package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Whose sandbox: a user's session, or a pooled one that belongs to nobody yet. */
class SandboxKeyTest {
    @Test
    void a_session_key_is_its_user_and_session_and_never_a_pooled_one() throws Exception {
        SandboxKey key = SandboxKey.of(new SandboxSpec("ada", "s-1", Path.of("/w/ada/s-1"), null));

        assertThat(key).isEqualTo(new SandboxKey("ada", "s-1"));
        assertThat(key.isPooled()).isFalse();
        assertThat(key).hasToString("ada/s-1");
        assertThat(SandboxKey.pooled("s-1")).isNotEqualTo(key);
    }

    @Test
    void a_pooled_key_says_so() {
        SandboxKey pooled = SandboxKey.pooled("p-0a1b");

        assertThat(pooled.isPooled()).isTrue();
        assertThat(pooled).hasToString("pool/p-0a1b");
        assertThat(pooled.uniqueName()).matches("agentbus--pool-p-0a1b-[0-9a-f]{8}");
    }

    @Test
    void names_made_from_a_key_are_name_safe_short_and_unique() {
        SandboxKey key = new SandboxKey("ada lovelace", "s/1:" + "x".repeat(100));

        String name = key.uniqueName();

        assertThat(name).matches("agentbus-[A-Za-z0-9_.-]{60}-[0-9a-f]{8}").startsWith("agentbus-ada_lovelace-s_1_x");
        assertThat(key.uniqueName()).isNotEqualTo(name);
    }

    @Test
    void a_spec_without_a_user_or_session_names_no_sandbox() {
        assertThatThrownBy(() -> SandboxKey.of(new SandboxSpec(null, "s", Path.of("/w"), null)))
                .isInstanceOf(SandboxException.class).hasMessage("a sandbox needs a user, a session and a workspace");
        assertThatThrownBy(() -> SandboxKey.of(new SandboxSpec("", "s", Path.of("/w"), null)))
                .isInstanceOf(SandboxException.class);
        assertThatThrownBy(() -> SandboxKey.of(null)).isInstanceOf(SandboxException.class);
    }
}
