package dev.agentbus.sandbox.sandboxing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentbus.sandbox.shell.Bubblewrap;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bubblewrap sandbox with {@code agentbus.sandbox.network=true} has a network of its own, not the host's (issue 28:
 * from a session, the embedded PostgreSQL answered on the host's loopback as superuser, and Kafka and the gateway
 * were reachable). Stand-in for those services: a plain listener on the host's 127.0.0.1, which the sandbox must
 * not reach by any address, while a listener on the host's network address shows the sandbox has a network at all.
 */
class BubblewrapNetworkIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    private final AtomicInteger loopbackConnections = new AtomicInteger();
    private final AtomicInteger networkConnections = new AtomicInteger();
    private ServerSocket loopback;
    private ServerSocket network;

    @BeforeEach
    void listen() throws Exception {
        loopback = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        accept(loopback, loopbackConnections);
        network = new ServerSocket(0, 50, hostAddress());
        accept(network, networkConnections);
    }

    @AfterEach
    void close() throws Exception {
        loopback.close();
        network.close();
    }

    @Test
    void with_the_network_on_a_listener_on_the_hosts_loopback_cannot_be_reached() throws Exception {
        try (Sandboxes sandboxes = BackendsUnderTest.fresh(BackendsUnderTest.BUBBLEWRAP, c -> c.withNetwork(true))) {
            Sandbox sandbox = sandboxes.acquire(spec());
            int port = loopback.getLocalPort();
            // 127.0.0.1 is the sandbox's own loopback; 10.0.2.2 is slirp4netns's way to the host's, disabled.
            String probe = connect("127.0.0.1", port) + connect("10.0.2.2", port) + connect("localhost", port)
                    + connect(network.getInetAddress().getHostAddress(), network.getLocalPort());

            CommandResult result = sandbox.shell(probe, TIMEOUT, null);

            assertThat(result.output()).contains("network " + network.getInetAddress().getHostAddress() + " "
                    + network.getLocalPort() + " open");
            assertThat(result.output()).doesNotContain(" " + port + " open");
            assertThat(loopbackConnections).hasValue(0);
            assertThat(networkConnections).hasValue(1);
            assertThat(sandbox.shell("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '",
                    TIMEOUT, null).output()).isEqualTo("lo tap0 ");
        }
    }

    @Test
    void a_sandboxed_stdio_mcp_server_with_the_network_cannot_reach_the_hosts_loopback_either() throws Exception {
        Path workspace = spec().workspace();
        int port = loopback.getLocalPort();
        List<String> argv = Bubblewrap.program(Bubblewrap.find("bwrap").orElseThrow(), workspace, true, 1000, 1000,
                List.of(), Map.of(), List.of("/bin/sh", "-c", connect("127.0.0.1", port) + connect("10.0.2.2", port)
                        + connect(network.getInetAddress().getHostAddress(), network.getLocalPort())));
        Process server = new ProcessBuilder(argv).redirectErrorStream(true).start();
        server.getOutputStream().close();
        String output = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(output).contains("network " + network.getInetAddress().getHostAddress() + " "
                + network.getLocalPort() + " open");
        assertThat(output).doesNotContain(" " + port + " open");
        assertThat(loopbackConnections).hasValue(0);
    }

    @Test
    void without_slirp4netns_the_network_is_refused_on_bubblewrap_with_the_reason() {
        SandboxConfig config = SandboxConfig.defaults().withBackend(SandboxConfig.Backend.BUBBLEWRAP)
                .withWorkerId("tests-" + ProcessHandle.current().pid() + "-no-slirp").withNetwork(true)
                .withSlirp4netnsPath("/nonexistent/slirp4netns");
        try (Sandboxes sandboxes = new Sandboxes(config)) {
            assertThat(sandboxes.unavailableReason()).hasValueSatisfying(why -> assertThat(why)
                    .contains("agentbus.sandbox.network=true needs slirp4netns (/nonexistent/slirp4netns)")
                    .contains("never the host's"));
        }
    }

    private SandboxSpec spec() throws Exception {
        Path workspace = Files.createDirectories(root.resolve("ursula").resolve("s-" + UUID.randomUUID()));
        return new SandboxSpec("ursula", workspace.getFileName().toString(), workspace, null);
    }

    /** A line saying whether a TCP connection to host:port opened, from python3 (the host's, through /usr). */
    private static String connect(String host, int port) {
        return "python3 -c \"import socket,sys\ntry:\n socket.create_connection(('" + host + "', " + port
                + "), 5); print('network " + host + " " + port + " open')\nexcept OSError as e: print('" + host
                + " " + port + " refused:', e)\"; ";
    }

    private static void accept(ServerSocket server, AtomicInteger count) {
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket ignored = server.accept()) {
                    count.incrementAndGet();
                } catch (Exception e) {
                    return;
                }
            }
        });
    }

    /** An IPv4 address of this host that is not loopback: the sandbox should reach it like any network address. */
    private static InetAddress hostAddress() throws Exception {
        Optional<InetAddress> found = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (Exception e) {
                        return false;
                    }
                })
                .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .findFirst();
        assertThat(found).as("a network address of this host").isPresent();
        return found.get();
    }
}
