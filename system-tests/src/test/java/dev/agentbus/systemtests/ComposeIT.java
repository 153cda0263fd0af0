package dev.agentbus.systemtests;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compose stack of {@code deploy/compose} as a user starts it: the images of {@code deploy/images} (built by
 * its build.sh when missing, reused when present), {@code docker-compose up} with KRaft Kafka, PostgreSQL and the
 * five services each in its own container, and one agent task driven through the gateway's published HTTP port.
 * The model is the scripted model server, reached by the containers on the Docker bridge's gateway address; the
 * tool call runs in a real sandbox container of the host's engine, started by the containerised worker through
 * the mounted socket.
 *
 * <p>In the middle of the turn (while the tool call runs) the orchestrator's JVM is killed with SIGKILL inside its
 * container. tini, the image's pid 1, exits with it, the container stops on its own and the restart policy
 * ({@code unless-stopped}) starts it again; the session must still finish, with no gap in seq, the tool run once
 * and no recorded model decision asked again.
 *
 * <p>The stack runs under a project name of its own and is always taken down with its volumes
 * ({@code docker-compose down -v}). Needs Docker and docker-compose: skipped without them on a developer's machine,
 * failing under {@code CI=true}.
 */
class ComposeIT {
    static final Path REPO = Path.of("").toAbsolutePath().getParent();
    static final Path COMPOSE_FILE = REPO.resolve("deploy/compose/docker-compose.yml");
    static final String PROJECT = "agentbus-composeit-" + ProcessHandle.current().pid();
    static final String TOKEN = "compose-it-token";
    static final Duration TURN = Duration.ofSeconds(120);

    static Path dir;
    static Path workspaces;
    static ScriptedModelServer model;
    static GatewayClient gateway;
    static final Map<String, String> env = new HashMap<>();
    static boolean up;

    @BeforeAll
    static void startTheStack() throws Exception {
        boolean tools = succeeds(List.of("docker", "info")) && succeeds(List.of("docker-compose", "version"));
        if (!tools && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("ComposeIT needs a Docker engine and docker-compose (.ci/run installs both)");
        }
        Assumptions.assumeTrue(tools, "no Docker engine or no docker-compose: ComposeIT skipped");

        // The images of the stack, and the sandbox image its worker starts; each script skips what is up to date.
        run(Duration.ofMinutes(20), List.of(REPO.resolve("deploy/images/build.sh").toString()), Map.of());
        run(Duration.ofMinutes(10), List.of(REPO.resolve("deploy/sandbox-image/build.sh").toString()), Map.of());

        // The workspaces at the same absolute path on the host and in the worker's container (the engine resolves
        // the sandboxes' bind mounts on the host), writable by the worker's user 10001.
        dir = Files.createTempDirectory("agentbus-compose-it");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        workspaces = Files.createDirectory(dir.resolve("workspaces"));
        Files.setPosixFilePermissions(workspaces, PosixFilePermissions.fromString("rwxrwxrwx"));

        model = ScriptedModelServer.startOn(InetAddress.getByName(bridgeGateway()), ScriptedModelServer.DEFAULT_MODEL);
        int port = freePort();
        env.put("LLM_URL", model.baseUrl());
        env.put("LLM_MODEL", ScriptedModelServer.DEFAULT_MODEL);
        env.put("AGENTBUS_TOKEN", TOKEN);
        env.put("POSTGRES_PASSWORD", "compose-it-password");
        env.put("AGENTBUS_HTTP_PORT", Integer.toString(port));
        env.put("AGENTBUS_WORKSPACES", workspaces.toString());
        env.put("DOCKER_GID", run(Duration.ofSeconds(10), List.of("stat", "-c", "%g", "/var/run/docker.sock"),
                Map.of()).strip());
        // Its own sandbox label, so this stack's worker never removes another worker's containers (and the test
        // finds its leftovers by it); no warm pool, which would only cost start-up time here.
        env.put("AGENTBUS_WORKER_ID", PROJECT);
        env.put("AGENTBUS_SANDBOX_POOL_SIZE", "0");
        env.put("AGENTBUS_KAFKA_PARTITIONS", "2");

        up = true;
        compose(Duration.ofMinutes(5), "up", "-d");
        gateway = new GatewayClient("http://127.0.0.1:" + port, TOKEN);
        Poll.until("the gateway's /health to answer 200 (Kafka reachable)", Duration.ofMinutes(3), ComposeIT::healthy);
        Poll.until("every container with a health check to be healthy", Duration.ofMinutes(3),
                () -> health("kafka").equals("healthy") && health("postgres").equals("healthy")
                        && health("gateway").equals("healthy"));
    }

    @AfterAll
    static void takeItDown() throws Exception {
        try {
            if (up) {
                Path logs = REPO.resolve("system-tests/target/compose-it.log");
                Files.createDirectories(logs.getParent());
                Files.writeString(logs, compose(Duration.ofMinutes(1), "logs", "--no-color", "--tail", "300"));
                compose(Duration.ofMinutes(3), "down", "-v", "--remove-orphans");
                // The worker removes its sandboxes when it stops; a killed one would leave them behind.
                // Its id is "<instance id>-<digest of its workspace root>" (SandboxConfig.workerIdFor).
                List<String> left = run(Duration.ofSeconds(30), List.of("docker", "ps", "-a", "--filter",
                        "label=dev.agentbus.sandbox.worker", "--format",
                        "{{.ID}} {{.Label \"dev.agentbus.sandbox.worker\"}}"), Map.of()).lines()
                        .map(line -> line.split(" ", 2)).filter(f -> f.length == 2 && f[1].startsWith(PROJECT + "-"))
                        .map(f -> f[0]).toList();
                if (!left.isEmpty()) {
                    List<String> rm = new ArrayList<>(List.of("docker", "rm", "-f"));
                    rm.addAll(left);
                    run(Duration.ofMinutes(1), rm, Map.of());
                }
            }
        } finally {
            if (model != null) {
                model.close();
            }
            if (dir != null) {
                run(Duration.ofMinutes(1), List.of("rm", "-rf", dir.toString()), Map.of());
            }
        }
    }

    @Test
    void an_agent_task_with_a_tool_call_finishes_although_the_orchestrator_is_killed_mid_turn() throws Exception {
        model.replyToolCall("shell", json("echo start >> runs.txt; sleep 6; echo end >> runs.txt; cat runs.txt"))
                .replyText("The command ran once.");
        String id = gateway.createSession("compose");
        gateway.postMessage(id, "run the slow command");

        gateway.awaitLog(id, e -> e.event() instanceof ToolCallStarted, TURN);
        int restartsBefore = restartCount("orchestrator");
        // SIGKILL to the JVM inside the container (a child of tini), as the kernel's OOM killer would send it: the
        // container stops on its own, so the restart policy applies (a `docker kill` would count as a manual stop).
        compose(Duration.ofSeconds(30), "exec", "-T", "orchestrator", "bash", "-c",
                "for p in /proc/[0-9]*; do [ \"$(cat $p/comm 2>/dev/null)\" = java ] && kill -9 ${p#/proc/}; done; true");
        Poll.until("the orchestrator's container to be restarted by its policy", Duration.ofSeconds(60),
                () -> restartCount("orchestrator") > restartsBefore);

        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, TURN);
        assertThat(events(log, TurnEnded.class)).as("the turn completes").singleElement()
                .satisfies(t -> {
                    assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED);
                    assertThat(t.answer()).isEqualTo("The command ran once.");
                });
        assertThat(log).as("seq has no gap and no duplicate").extracting(EventEnvelope::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        assertThat(events(log, ToolCallStarted.class)).as("the tool call started once").hasSize(1);
        List<ToolCallCompleted> results = events(log, ToolCallCompleted.class);
        assertThat(results).as("answered once, with the output of the sandbox").singleElement()
                .satisfies(r -> {
                    assertThat(r.ok()).isTrue();
                    assertThat(r.output()).contains("start", "end");
                });
        assertThat(results.getFirst().callId()).isEqualTo(events(log, ToolCallRequested.class).getFirst().callId());
        assertThat(model.requestCount()).as("no recorded model decision was asked again").isEqualTo(2);
        // The sandbox (a container of the host's engine) wrote into the bind-mounted workspace on the host.
        assertThat(Files.readAllLines(workspaces.resolve("local").resolve(id).resolve("runs.txt")))
                .as("the command ran once, in the workspace on the host").containsExactly("start", "end");
        assertThat(health("gateway")).isEqualTo("healthy");
    }

    @Test
    void every_service_runs_as_user_10001_on_a_read_only_root_with_the_jvm_settings_for_a_container() {
        for (String service : List.of("gateway", "orchestrator", "sandbox-worker", "scheduler", "memory-service")) {
            assertThat(inspect(service, "{{.Config.User}}")).as("%s: non-root", service).isEqualTo("10001:10001");
            assertThat(inspect(service, "{{.HostConfig.ReadonlyRootfs}}")).as("%s: read-only root", service)
                    .isEqualTo("true");
            assertThat(inspect(service, "{{.HostConfig.RestartPolicy.Name}}")).isEqualTo("unless-stopped");
            assertThat(inspect(service, "{{json .Config.Env}}")).as("%s: JVM settings", service)
                    .contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError");
            assertThat(inspect(service, "{{if .Config.Healthcheck}}yes{{end}}")).as("%s: a health check", service)
                    .isEqualTo("yes");
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private static boolean healthy() {
        try {
            return gateway.get("/health").status() == 200;
        } catch (AssertionError notYet) {
            return false;
        }
    }

    private static String containerId(String service) {
        try {
            return compose(Duration.ofSeconds(30), "ps", "-q", service).strip();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String health(String service) {
        return inspect(service, "{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}");
    }

    private static int restartCount(String service) {
        return Integer.parseInt(inspect(service, "{{.RestartCount}}"));
    }

    private static String inspect(String service, String format) {
        try {
            return run(Duration.ofSeconds(30), List.of("docker", "inspect", "--format", format, containerId(service)),
                    Map.of()).strip();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The host's address as the containers see it ({@code host-gateway}): the default bridge's gateway. Some engines
     * (Debian's docker.io 20.10 here) list the bridge's subnet without a gateway; the address is then the bridge
     * interface's own ({@code docker0}), which is what the engine itself uses. An empty answer used to bind the model
     * server to 127.0.0.1, where no container reaches it.
     */
    private static String bridgeGateway() throws Exception {
        String listed = run(Duration.ofSeconds(30), List.of("docker", "network", "inspect", "bridge", "--format",
                "{{range .IPAM.Config}}{{.Gateway}} {{end}}"), Map.of()).strip();
        if (!listed.isEmpty()) {
            return listed.split(" ")[0];
        }
        String bridge = run(Duration.ofSeconds(30), List.of("docker", "network", "inspect", "bridge", "--format",
                "{{index .Options \"com.docker.network.bridge.name\"}}"), Map.of()).strip();
        NetworkInterface nic = NetworkInterface.getByName(bridge.isEmpty() ? "docker0" : bridge);
        assertThat(nic).as("the Docker bridge interface %s", bridge).isNotNull();
        return nic.inetAddresses().filter(a -> a instanceof Inet4Address).findFirst()
                .map(InetAddress::getHostAddress)
                .orElseThrow(() -> new IllegalStateException("the Docker bridge " + nic.getName()
                        + " has no IPv4 address, and the engine lists no gateway for it"));
    }

    private static String compose(Duration timeout, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("docker-compose", "--project-name", PROJECT,
                "--file", COMPOSE_FILE.toString(), "--project-directory", COMPOSE_FILE.getParent().toString()));
        command.addAll(List.of(args));
        return run(timeout, command, env);
    }

    /** Runs a command to its end; its standard output, or an AssertionError with both outputs. */
    private static String run(Duration timeout, List<String> command, Map<String, String> extraEnv) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(REPO.toFile());
        pb.environment().putAll(extraEnv);
        // Files, not pipes: docker-compose's progress on stderr must never block it while we wait.
        Path out = Files.createTempFile("compose-it", ".out");
        Path err = Files.createTempFile("compose-it", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        try {
            boolean ended = p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            if (!ended || p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command)
                        + (ended ? " failed (" + p.exitValue() + ")" : " did not finish within " + timeout) + ":\n"
                        + output + Files.readString(err, StandardCharsets.UTF_8));
            }
            return output;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static boolean succeeds(List<String> command) {
        try {
            run(Duration.ofSeconds(30), command, Map.of());
            return true;
        } catch (Exception | AssertionError e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String json(String command) {
        return "{\"command\":\"" + command.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }
}
