package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.eventbus.DataDir;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.sandbox.sandboxing.PodSandboxConfig;
import dev.agentbus.sandbox.mcp.McpSessions;
import dev.agentbus.sandbox.mcp.McpSettings;
import dev.agentbus.sandbox.mcp.UserMcpConfigs;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import dev.agentbus.sandbox.tools.SandboxSettings;
import dev.agentbus.sandbox.tools.ToolExecutor;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Turns the worker's settings ({@link WorkerSettings}) into the executor's and the sandboxes', builds the sandbox
 * provider (the backend is chosen there, see {@link Sandboxes}), and runs the {@link ToolRunner} with the application
 * context.
 */
@Context
class SandboxRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxRuntime.class);

    private final KafkaSettings kafka;
    private final SandboxSettings settings;
    private final Workspaces workspaces;
    private final int maxConcurrentCalls;
    private final int contextFileMaxChars;
    private final SandboxConfig sandboxConfig;
    /** Where pods are made, when the Kubernetes backend is configured; else null. */
    private final PodSandboxConfig pods;
    private Sandboxes sandboxes;
    private ToolRunner runner;

    private final WorkerSettings worker;
    private final McpSettings mcpSettings;
    private final OutgoingSettings outgoing;
    /** Opens the users' own MCP servers' secrets, sealed by the gateway with the same installation key. */
    private final SecretBox secrets;
    private UserMcpConfigs userMcp;
    private McpSessions mcp;

    SandboxRuntime(KafkaSettings kafka, WorkerSettings worker, McpSettings mcpSettings, SecretBox secrets,
                   OutgoingSettings outgoing) {
        this.outgoing = outgoing;
        this.kafka = kafka;
        this.worker = worker;
        this.mcpSettings = mcpSettings;
        this.secrets = secrets;
        this.maxConcurrentCalls = worker.maxConcurrentCalls();
        this.contextFileMaxChars = worker.contextFileMaxChars();
        int timeout = worker.shellTimeoutSeconds();
        this.settings = new SandboxSettings(Duration.ofSeconds(timeout), Duration.ofSeconds(Math.max(timeout, 120)),
                worker.outputCapBytes(), worker.maxFileBytes(), worker.unsafeHost(), worker.bwrap()).withConfiguration(
                worker.blockedCommands(),
                worker.workspaceOnlyPaths(),
                worker.allowedPaths(),
                worker.commandsAllow(),
                worker.commandsDeny(),
                worker.transferMaxBytes(),
                worker.backupsKept(),
                worker.backupMaxBytes());
        this.workspaces = new Workspaces(worker.workspaceRoot().isBlank()
                ? DataDir.of(worker.dataDir()).resolve("workspaces") : Path.of(worker.workspaceRoot()));
        // The pool sits beside the users' directories (a dot name no user id can have), on the same file system,
        // because a pooled workspace is renamed into place.
        this.sandboxConfig = new SandboxConfig(SandboxConfig.Backend.parse(worker.backend()), worker.unsafeHost(),
                worker.bwrap(), worker.dockerHost(), worker.image(),
                new SandboxConfig.Limits(worker.pidsLimit(), worker.memoryMb() * 1024 * 1024, worker.cpus()),
                worker.network(), Duration.ofSeconds(worker.idleTimeoutSeconds()), worker.poolSize(),
                workspaces.root().resolve(".pool"), worker.outputCapBytes(),
                SandboxConfig.workerIdFor(kafka.instanceId(), workspaces.root()),
                SandboxConfig.Scope.parse(worker.scope()), worker.slirp4netns(), worker.dockerUid());
        this.pods = sandboxConfig.backend() != SandboxConfig.Backend.KUBERNETES ? null
                : new PodSandboxConfig(PodSandboxConfig.namespaceOrOwn(worker.kubernetesNamespace(),
                        Path.of(PodSandboxConfig.SERVICE_ACCOUNT_NAMESPACE)), worker.kubernetesWorkspaceClaim(),
                        workspaces.root(), worker.kubernetesRuntimeClass(),
                        Duration.ofSeconds(worker.kubernetesReadyTimeoutSeconds()));
    }

    @PostConstruct
    void start() throws InterruptedException {
        if (settings.unsafeHost()) {
            LOG.warn("""

                    ********************************************************************************
                    *  AGENTBUS_SANDBOX_UNSAFE_HOST is on: shell commands run DIRECTLY ON THIS HOST  *
                    *  with no isolation. Use only on a throw-away machine.                         *
                    ********************************************************************************""");
        }
        sandboxes = new Sandboxes(sandboxConfig, pods);
        sandboxes.unavailableReason().ifPresent(why -> LOG.error("every command will be refused: {}", why));
        TopicAdmin.ensureTopics(kafka);
        // Before the runner: a session created now must get its owner's servers. Stdio MCP servers run in a
        // bubblewrap sandbox of their own with the session's workspace (McpLauncher).
        userMcp = UserMcpConfigs.follow(kafka, secrets);
        mcp = McpSessions.of(mcpSettings, userMcp.lookup(), worker.bwrap(), worker.outputCapBytes(),
                outgoing.policy());
        userMcp.onChange(mcp::userChanged);
        runner = new ToolRunner(kafka, new ToolExecutor(settings, sandboxes), workspaces,
                new dev.agentbus.sandbox.checkpointing.Checkpoints(workspaces.root(), Clock.systemUTC()),
                Clock.systemUTC(), maxConcurrentCalls, contextFileMaxChars, mcp);
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
        if (userMcp != null) {
            userMcp.close();
        }
    }
}
