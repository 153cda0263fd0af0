package dev.agentbus.sandbox.runningtools;

import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The sandbox-worker's settings as it binds them (its runtime, which needs Kafka, is left out). */
class WorkerSettingsTest {

    @Test
    void without_settings_the_worker_gets_the_documented_defaults() {
        assertThat(bind(Map.of())).isEqualTo(new WorkerSettings("", "", false, "bwrap", 30, 65536, 1048576, 4,
                "auto", "agentbus-sandbox:1", "", 128, 512, 0.9, false, 900, 2, "session", "", true, "", "", "",
                524288, 100, 67108864, 8192, "", "agentbus-workspaces", "", 120, "slirp4netns", 64100));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        Map<String, String> environment = Map.ofEntries(
                Map.entry("AGENTBUS_DATA_DIR", "/srv/agentbus"),
                Map.entry("AGENTBUS_SANDBOX_WORKSPACE_ROOT", "/mnt/workspaces"),
                Map.entry("AGENTBUS_SANDBOX_UNSAFE_HOST", "true"),
                Map.entry("AGENTBUS_SANDBOX_BWRAP", "/usr/local/bin/bwrap"),
                Map.entry("AGENTBUS_SANDBOX_SHELL_TIMEOUT_SECONDS", "60"),
                Map.entry("AGENTBUS_SANDBOX_OUTPUT_CAP_BYTES", "4096"),
                Map.entry("AGENTBUS_SANDBOX_MAX_FILE_BYTES", "2048"),
                Map.entry("AGENTBUS_SANDBOX_MAX_CONCURRENT_CALLS", "2"),
                Map.entry("AGENTBUS_SANDBOX_BACKEND", "docker"),
                Map.entry("AGENTBUS_SANDBOX_IMAGE", "registry.example:5000/sandbox:2"),
                Map.entry("AGENTBUS_SANDBOX_DOCKER_HOST", "tcp://docker:2375"),
                Map.entry("AGENTBUS_SANDBOX_PIDS_LIMIT", "64"),
                Map.entry("AGENTBUS_SANDBOX_MEMORY_MB", "256"),
                Map.entry("AGENTBUS_SANDBOX_CPUS", "1.5"),
                Map.entry("AGENTBUS_SANDBOX_NETWORK", "yes"),
                Map.entry("AGENTBUS_SANDBOX_IDLE_TIMEOUT_SECONDS", "60"),
                Map.entry("AGENTBUS_SANDBOX_POOL_SIZE", "2"),
                Map.entry("AGENTBUS_SANDBOX_SCOPE", "user"),
                Map.entry("AGENTBUS_SANDBOX_BLOCKED_COMMANDS", "none"),
                Map.entry("AGENTBUS_SANDBOX_WORKSPACE_ONLY_PATHS", "false"),
                Map.entry("AGENTBUS_SANDBOX_ALLOWED_PATHS", "/opt"),
                Map.entry("AGENTBUS_SANDBOX_COMMANDS_ALLOW", "git,ls"),
                Map.entry("AGENTBUS_SANDBOX_COMMANDS_DENY", "none"),
                Map.entry("AGENTBUS_SANDBOX_TRANSFER_MAX_BYTES", "1024"),
                Map.entry("AGENTBUS_SANDBOX_BACKUPS_KEPT", "5"),
                Map.entry("AGENTBUS_SANDBOX_BACKUP_MAX_BYTES", "4096"),
                Map.entry("AGENTBUS_SANDBOX_CONTEXT_FILE_MAX_CHARS", "1000"),
                Map.entry("AGENTBUS_SANDBOX_KUBERNETES_NAMESPACE", "sandboxes"),
                Map.entry("AGENTBUS_SANDBOX_KUBERNETES_WORKSPACE_CLAIM", "team-workspaces"),
                Map.entry("AGENTBUS_SANDBOX_KUBERNETES_RUNTIME_CLASS", "gvisor"),
                Map.entry("AGENTBUS_SANDBOX_KUBERNETES_READY_TIMEOUT_SECONDS", "300"),
                Map.entry("AGENTBUS_SANDBOX_SLIRP4NETNS", "/opt/bin/slirp4netns"),
                Map.entry("AGENTBUS_SANDBOX_DOCKER_UID", "70000"));
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("sandbox-worker", environment,
                SandboxRuntime.class)) {
            assertThat(ctx.getBean(WorkerSettings.class)).isEqualTo(new WorkerSettings("/srv/agentbus",
                    "/mnt/workspaces", true, "/usr/local/bin/bwrap", 60, 4096, 2048, 2, "docker",
                    "registry.example:5000/sandbox:2", "tcp://docker:2375", 64, 256, 1.5, true, 60, 2, "user",
                    "none", false, "/opt", "git,ls", "none", 1024, 5, 4096, 1000, "sandboxes", "team-workspaces",
                    "gvisor", 300, "/opt/bin/slirp4netns", 70000));
        }
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("pids-limit", "7", "must be at least 8, not 7"),
                bad("context-file-max-chars", "10", "must be at least 256, not 10"),
                bad("memory-mb", "16", "must be at least 32, not 16"),
                bad("cpus", "0", "must be more than 0, not 0.0"),
                bad("shell-timeout-seconds", "0", "must be at least 1, not 0"),
                bad("output-cap-bytes", "100", "must be at least 1024, not 100"),
                bad("max-concurrent-calls", "0", "must be at least 1, not 0"),
                bad("pool-size", "-1", "must be at least 0, not -1"),
                bad("idle-timeout-seconds", "0", "must be at least 1, not 0"),
                bad("backups-kept", "0", "must be at least 1, not 0"),
                bad("backend", "podman", "must be one of auto, docker, bubblewrap, kubernetes, not 'podman'"),
                bad("kubernetes-ready-timeout-seconds", "0", "must be at least 1, not 0"),
                bad("scope", "team", "must be one of session, user, not 'team'"),
                bad("docker-uid", "0", "must be at least 1, not 0"),
                bad("transfer-max-bytes", "800000", "must be at most 716800 (a transfer travels base64-encoded in "
                        + "one Kafka record of at most 1 MiB), not 800000"),
                bad("backup-max-bytes", "1000",
                        "must be at least agentbus.sandbox.max-file-bytes (1048576), not 1000"),
                bad("pids-limit", "lots", "must be a whole number, not 'lots'"),
                bad("cpus", "half", "must be a number, not 'half'"),
                bad("network", "1", "must be true or false, not '1'"),
                bad("unsafe-host", "maybe", "must be true or false, not 'maybe'"));
    }

    private static Arguments bad(String key, String value, String complaint) {
        return Arguments.of("agentbus.sandbox." + key, value, "agentbus.sandbox." + key + " " + complaint);
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badValues")
    void a_bad_value_stops_the_worker_naming_the_property_and_the_value(String property, String value,
                                                                        String message) {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of(property, value)))).isEqualTo(message);
    }

    @Test
    void the_backend_and_scope_may_be_written_in_any_case() {
        WorkerSettings settings = bind(Map.of("agentbus.sandbox.backend", "Docker",
                "agentbus.sandbox.scope", "USER"));

        assertThat(settings.backend()).isEqualTo("Docker");
        assertThat(settings.scope()).isEqualTo("USER");
    }

    private static WorkerSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("sandbox-worker", properties, SandboxRuntime.class)) {
            return ctx.getBean(WorkerSettings.class);
        }
    }
}
