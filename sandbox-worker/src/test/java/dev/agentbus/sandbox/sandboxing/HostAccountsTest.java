package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The uid of Docker sandboxes is checked against the host's accounts at start (issue 28). */
class HostAccountsTest {
    @TempDir
    Path dir;

    private HostAccounts accounts() throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd"), """
                root:x:0:0:root:/root:/bin/bash
                alice:x:1000:1000::/home/alice:/bin/bash
                builder:x:64100:64100::/home/builder:/bin/sh
                """);
        Path group = Files.writeString(dir.resolve("group"), """
                root:x:0:
                alice:x:1000:
                media:x:64200:
                """);
        return new HostAccounts(passwd, group);
    }

    @Test
    void a_uid_an_account_or_a_group_of_the_host_has_is_named_with_the_account() throws Exception {
        assertThat(accounts().conflictWith(1000)).hasValueSatisfying(why -> assertThat(why)
                .contains("agentbus.sandbox.docker-uid 1000").contains("'alice'"));
        assertThat(accounts().conflictWith(64100)).hasValueSatisfying(why -> assertThat(why).contains("'builder'"));
        assertThat(accounts().conflictWith(64200)).hasValueSatisfying(why -> assertThat(why).contains("'media'"));
        assertThat(accounts().conflictWith(64300)).isEmpty();
    }

    @Test
    void a_root_worker_refuses_docker_when_the_sandbox_uid_is_taken_before_it_asks_the_engine() throws Exception {
        SandboxConfig config = SandboxConfig.defaults().withDockerUid(1000);

        BackendChoice.Probe refused = DockerBackend.probe(config, accounts(), true);

        assertThat(refused.usable()).isNull();
        assertThat(refused.problem()).contains("docker-uid 1000").contains("'alice'");
    }

    @Test
    void the_default_uid_is_not_the_first_user_of_a_host() {
        assertThat(SandboxConfig.defaults().dockerUid()).isEqualTo(SandboxConfig.DEFAULT_DOCKER_UID)
                .isGreaterThan(60_000);
    }
}
