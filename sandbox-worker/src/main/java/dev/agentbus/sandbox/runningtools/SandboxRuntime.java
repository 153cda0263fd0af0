package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.DataDir;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.sandbox.tools.SandboxSettings;
import dev.agentbus.sandbox.tools.ToolExecutor;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/** Reads the sandbox settings, checks bubblewrap, and runs the {@link ToolRunner} with the application context. */
@Context
public class SandboxRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxRuntime.class);

    private final KafkaSettings kafka;
    private final SandboxSettings settings;
    private final Workspaces workspaces;
    private final int maxConcurrentCalls;
    private ToolRunner runner;

    public SandboxRuntime(KafkaSettings kafka,
                          @Value("${agentbus.data-dir:}") String dataDir,
                          @Value("${agentbus.sandbox.workspace-root:}") String workspaceRoot,
                          @Value("${agentbus.sandbox.unsafe-host:false}") boolean unsafeHost,
                          @Value("${agentbus.sandbox.bwrap:bwrap}") String bwrap,
                          @Value("${agentbus.sandbox.shell-timeout-seconds:30}") int timeout,
                          @Value("${agentbus.sandbox.output-cap-bytes:65536}") int outputCap,
                          @Value("${agentbus.sandbox.max-file-bytes:1048576}") long maxFile,
                          @Value("${agentbus.sandbox.max-concurrent-calls:4}") int maxConcurrentCalls) {
        this.kafka = kafka;
        this.maxConcurrentCalls = maxConcurrentCalls;
        this.settings = new SandboxSettings(Duration.ofSeconds(timeout), Duration.ofSeconds(Math.max(timeout, 120)),
                outputCap, maxFile, unsafeHost, bwrap);
        this.workspaces = new Workspaces(workspaceRoot.isBlank()
                ? DataDir.of(dataDir).resolve("workspaces") : Path.of(workspaceRoot));
    }

    @PostConstruct
    void start() {
        if (settings.unsafeHost()) {
            LOG.warn("""

                    ********************************************************************************
                    *  AGENTBUS_SANDBOX_UNSAFE_HOST is on: shell commands run DIRECTLY ON THIS HOST  *
                    *  with no isolation. Use only on a throw-away machine.                         *
                    ********************************************************************************""");
        } else if (!ToolExecutor.bwrapAvailable(settings.bwrapPath())) {
            LOG.error("bubblewrap ({}) is not installed: the shell tool will refuse every command. Install it "
                    + "(apt-get install bubblewrap) or set AGENTBUS_SANDBOX_UNSAFE_HOST=true.", settings.bwrapPath());
        }
        TopicAdmin.ensureTopics(kafka);
        runner = new ToolRunner(kafka, new ToolExecutor(settings), workspaces, Clock.systemUTC(), maxConcurrentCalls);
        runner.start();
        LOG.info("sandbox-worker started: workspaces under {}, up to {} calls at once", workspaces.root(),
                maxConcurrentCalls);
    }

    @PreDestroy
    void stop() {
        if (runner != null) {
            runner.close();
        }
    }
}
