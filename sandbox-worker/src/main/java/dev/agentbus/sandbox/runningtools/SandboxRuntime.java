package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.DataDir;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import dev.agentbus.sandbox.tools.SandboxSettings;
import dev.agentbus.sandbox.tools.ToolExecutor;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.value.PropertyResolver;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Reads the sandbox settings, builds the sandbox provider (the backend is chosen there, see {@link Sandboxes}), and
 * runs the {@link ToolRunner} with the application context.
 */
@Context
class SandboxRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxRuntime.class);

    private final KafkaSettings kafka;
    private final SandboxSettings settings;
    private final Workspaces workspaces;
    private final int maxConcurrentCalls;
    private final SandboxConfig sandboxConfig;
    private Sandboxes sandboxes;
    private ToolRunner runner;

    public SandboxRuntime(KafkaSettings kafka,
                          @Value("${agentbus.data-dir:}") String dataDir,
                          @Value("${agentbus.sandbox.workspace-root:}") String workspaceRoot,
                          @Value("${agentbus.sandbox.unsafe-host:false}") boolean unsafeHost,
                          @Value("${agentbus.sandbox.bwrap:bwrap}") String bwrap,
                          @Value("${agentbus.sandbox.shell-timeout-seconds:30}") int timeout,
                          @Value("${agentbus.sandbox.output-cap-bytes:65536}") int outputCap,
                          @Value("${agentbus.sandbox.max-file-bytes:1048576}") long maxFile,
                          @Value("${agentbus.sandbox.max-concurrent-calls:4}") int maxConcurrentCalls,
                          @Value("${agentbus.sandbox.backend:auto}") String backend,
                          @Value("${agentbus.sandbox.image:`agentbus-sandbox:1`}") String image,
                          @Value("${agentbus.sandbox.docker-host:}") String dockerHost,
                          @Value("${agentbus.sandbox.pids-limit:128}") int pids,
                          @Value("${agentbus.sandbox.memory-mb:512}") long memoryMb,
                          @Value("${agentbus.sandbox.cpus:0.9}") double cpus,
                          @Value("${agentbus.sandbox.network:false}") boolean network,
                          @Value("${agentbus.sandbox.idle-timeout-seconds:900}") long idleSeconds,
                          @Value("${agentbus.sandbox.pool-size:0}") int poolSize,
                          @Value("${agentbus.sandbox.scope:session}") String scope,
                          PropertyResolver config) {
        this.kafka = kafka;
        this.maxConcurrentCalls = maxConcurrentCalls;
        this.settings = new SandboxSettings(Duration.ofSeconds(timeout), Duration.ofSeconds(Math.max(timeout, 120)),
                outputCap, maxFile, unsafeHost, bwrap).withConfiguration(
                config.get("agentbus.sandbox.blocked-commands", String.class).orElse(""),
                config.get("agentbus.sandbox.workspace-only-paths", Boolean.class).orElse(true),
                config.get("agentbus.sandbox.allowed-paths", String.class).orElse(""),
                config.get("agentbus.sandbox.commands.allow", String.class).orElse(""),
                config.get("agentbus.sandbox.commands.deny", String.class).orElse(""),
                config.get("agentbus.sandbox.transfer-max-bytes", Long.class).orElse(524_288L),
                config.get("agentbus.sandbox.backups-kept", Integer.class).orElse(100),
                config.get("agentbus.sandbox.backup-max-bytes", Long.class).orElse(64L * 1024 * 1024));
        this.workspaces = new Workspaces(workspaceRoot.isBlank()
                ? DataDir.of(dataDir).resolve("workspaces") : Path.of(workspaceRoot));
        // The pool sits beside the users' directories (a dot name no user id can have), on the same file system,
        // because a pooled workspace is renamed into place.
        this.sandboxConfig = new SandboxConfig(SandboxConfig.Backend.parse(backend), unsafeHost, bwrap, dockerHost,
                image, new SandboxConfig.Limits(pids, memoryMb * 1024 * 1024, cpus), network,
                Duration.ofSeconds(idleSeconds), poolSize, workspaces.root().resolve(".pool"), outputCap,
                kafka.instanceId(), SandboxConfig.Scope.parse(scope));
    }

    @PostConstruct
    void start() {
        if (settings.unsafeHost()) {
            LOG.warn("""

                    ********************************************************************************
                    *  AGENTBUS_SANDBOX_UNSAFE_HOST is on: shell commands run DIRECTLY ON THIS HOST  *
                    *  with no isolation. Use only on a throw-away machine.                         *
                    ********************************************************************************""");
        }
        sandboxes = new Sandboxes(sandboxConfig);
        sandboxes.unavailableReason().ifPresent(why -> LOG.error("every command will be refused: {}", why));
        TopicAdmin.ensureTopics(kafka);
        runner = new ToolRunner(kafka, new ToolExecutor(settings, sandboxes), workspaces, Clock.systemUTC(),
                maxConcurrentCalls);
        runner.start();
        LOG.info("sandbox-worker started: {} sandboxes, workspaces under {}, up to {} calls at once",
                sandboxes.backend(), workspaces.root(), maxConcurrentCalls);
    }

    @PreDestroy
    void stop() {
        if (runner != null) {
            runner.close();
        }
        if (sandboxes != null) {
            sandboxes.close(); // after the runner: no call may still be using a sandbox
        }
    }
}
