package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker's id labels its containers, and a starting worker removes every container with its id as left over:
 * two installations on one Docker engine must never have the same id, and a restarted worker must have its own again.
 */
class WorkerIdTest {
    @Test
    void the_same_replica_serving_the_same_workspaces_has_the_same_id_after_a_restart() {
        assertThat(SandboxConfig.workerIdFor("0", Path.of("/var/lib/agentbus/workspaces")))
                .isEqualTo(SandboxConfig.workerIdFor("0", Path.of("/var/lib/agentbus/../agentbus/workspaces")));
    }

    @Test
    void two_installations_and_two_replicas_never_share_an_id() {
        String dev = SandboxConfig.workerIdFor("0", Path.of("/srv/dev/workspaces"));
        String staging = SandboxConfig.workerIdFor("0", Path.of("/srv/staging/workspaces"));
        String secondReplica = SandboxConfig.workerIdFor("1", Path.of("/srv/dev/workspaces"));

        assertThat(dev).isNotEqualTo(staging).isNotEqualTo(secondReplica);
        assertThat(dev).startsWith("0-");
        assertThat(secondReplica).startsWith("1-");
    }

    @Test
    void the_id_is_one_that_labels_and_cgroup_names_take() {
        assertThat(SandboxConfig.workerIdFor("pod/worker 2", Path.of("/w"))).matches("[A-Za-z0-9-]{1,63}");
        assertThat(SandboxConfig.workerIdFor(null, Path.of("/w"))).startsWith("0-");
    }
}
