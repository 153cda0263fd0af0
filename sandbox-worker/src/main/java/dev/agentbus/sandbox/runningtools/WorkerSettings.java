package dev.agentbus.sandbox.runningtools;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;

import java.util.List;
import java.util.Locale;

/**
 * Every setting of the sandbox-worker: {@code agentbus.sandbox.*} and {@code agentbus.data-dir}, or the matching
 * environment variables ({@code AGENTBUS_SANDBOX_BACKEND}, {@code AGENTBUS_SANDBOX_PIDS_LIMIT} …). Checked when the
 * worker starts, so a value out of range stops it with a message naming the property. What each one does is in
 * docs/configuration.md, docs/sandbox.md and docs/tools.md.
 *
 * <p>The runtime turns these into the executor's {@link dev.agentbus.sandbox.tools.SandboxSettings} and the
 * sandboxes' {@link dev.agentbus.sandbox.sandboxing.SandboxConfig}.
 */
@ConfigurationProperties("agentbus.sandbox")
record WorkerSettings(
        @Property(name = "agentbus.data-dir") @Bindable(defaultValue = "") String dataDir,
        @Bindable(defaultValue = "") String workspaceRoot,
        @Bindable(defaultValue = "false") boolean unsafeHost,
        @Bindable(defaultValue = "bwrap") String bwrap,
        @Bindable(defaultValue = "30") int shellTimeoutSeconds,
        @Bindable(defaultValue = "65536") int outputCapBytes,
        @Bindable(defaultValue = "1048576") long maxFileBytes,
        @Bindable(defaultValue = "4") int maxConcurrentCalls,
        @Bindable(defaultValue = "auto") String backend,
        @Bindable(defaultValue = "agentbus-sandbox:1") String image,
        @Bindable(defaultValue = "") String dockerHost,
        @Bindable(defaultValue = "128") int pidsLimit,
        @Bindable(defaultValue = "512") long memoryMb,
        @Bindable(defaultValue = "0.9") double cpus,
        @Bindable(defaultValue = "false") boolean network,
        @Bindable(defaultValue = "900") long idleTimeoutSeconds,
        @Bindable(defaultValue = "2") int poolSize,
        @Bindable(defaultValue = "session") String scope,
        @Bindable(defaultValue = "") String blockedCommands,
        @Bindable(defaultValue = "true") boolean workspaceOnlyPaths,
        @Bindable(defaultValue = "") String allowedPaths,
        @Property(name = "agentbus.sandbox.commands.allow") @Bindable(defaultValue = "") String commandsAllow,
        @Property(name = "agentbus.sandbox.commands.deny") @Bindable(defaultValue = "") String commandsDeny,
        @Bindable(defaultValue = "524288") long transferMaxBytes,
        @Bindable(defaultValue = "100") int backupsKept,
        @Bindable(defaultValue = "67108864") long backupMaxBytes,
        @Bindable(defaultValue = "8192") int contextFileMaxChars,
        @Bindable(defaultValue = "") String kubernetesNamespace,
        @Bindable(defaultValue = "agentbus-workspaces") String kubernetesWorkspaceClaim,
        @Bindable(defaultValue = "") String kubernetesRuntimeClass,
        @Bindable(defaultValue = "120") long kubernetesReadyTimeoutSeconds,
        @Bindable(defaultValue = "slirp4netns") String slirp4netns,
        @Bindable(defaultValue = "64100") int dockerUid) {

    /** 700 KiB: a transfer travels base64-encoded (4/3 of its size) in one Kafka record of at most 1 MiB. */
    static final long TRANSFER_LIMIT_BYTES = 700 * 1024;

    WorkerSettings {
        atLeast("shell-timeout-seconds", shellTimeoutSeconds, 1);
        atLeast("output-cap-bytes", outputCapBytes, 1024);
        atLeast("max-file-bytes", maxFileBytes, 1);
        atLeast("max-concurrent-calls", maxConcurrentCalls, 1);
        oneOf("backend", backend, List.of("auto", "docker", "bubblewrap", "kubernetes"));
        atLeast("pids-limit", pidsLimit, 8);
        atLeast("memory-mb", memoryMb, 32);
        if (!(cpus > 0)) {
            throw new IllegalArgumentException("agentbus.sandbox.cpus must be more than 0, not " + cpus);
        }
        atLeast("idle-timeout-seconds", idleTimeoutSeconds, 1);
        atLeast("pool-size", poolSize, 0);
        oneOf("scope", scope, List.of("session", "user"));
        atLeast("transfer-max-bytes", transferMaxBytes, 1);
        if (transferMaxBytes > TRANSFER_LIMIT_BYTES) {
            throw new IllegalArgumentException("agentbus.sandbox.transfer-max-bytes must be at most "
                    + TRANSFER_LIMIT_BYTES + " (a transfer travels base64-encoded in one Kafka record of at most "
                    + "1 MiB), not " + transferMaxBytes);
        }
        atLeast("backups-kept", backupsKept, 1);
        atLeast("context-file-max-chars", contextFileMaxChars, 256);
        atLeast("kubernetes-ready-timeout-seconds", kubernetesReadyTimeoutSeconds, 1);
        atLeast("docker-uid", dockerUid, 1);
        if (kubernetesWorkspaceClaim == null || kubernetesWorkspaceClaim.isBlank()) {
            throw new IllegalArgumentException("agentbus.sandbox.kubernetes-workspace-claim must name the "
                    + "PersistentVolumeClaim that holds the workspaces");
        }
        if (backupMaxBytes < maxFileBytes) {
            throw new IllegalArgumentException("agentbus.sandbox.backup-max-bytes must be at least "
                    + "agentbus.sandbox.max-file-bytes (" + maxFileBytes + "), not " + backupMaxBytes);
        }
    }

    private static void atLeast(String key, long value, long least) {
        if (value < least) {
            throw new IllegalArgumentException("agentbus.sandbox." + key + " must be at least " + least + ", not "
                    + value);
        }
    }

    private static void oneOf(String key, String value, List<String> allowed) {
        if (value == null || !allowed.contains(value.trim().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("agentbus.sandbox." + key + " must be one of "
                    + String.join(", ", allowed) + ", not '" + value + "'");
        }
    }
}
