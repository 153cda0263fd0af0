package dev.agentbus.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real, single-node Apache Kafka broker running in KRaft combined mode (broker and controller in
 * one node), started in-process from Kafka's own server classes.
 *
 * <p>Used two ways: integration tests point it at a temporary directory; the standalone launcher
 * points it at a directory on disk so topics and offsets survive restarts. On first start the data
 * directory is formatted exactly like {@code kafka-storage format} does (same {@link Formatter});
 * afterwards the existing {@code meta.properties} (and thus the cluster id) is reused.
 *
 * <p>The controller quorum is <em>static</em> ({@code controller.quorum.voters}). A dynamic
 * (KIP-853) quorum would persist the controller endpoint in the metadata log at format time, so a
 * controller port picked freshly on the next process start would no longer match it. With a
 * static quorum only the data dir must survive, which is what the launcher needs.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    /** The one node of this cluster; it is both voter and broker. */
    static final int NODE_ID = 1;
    static final String HOST = "127.0.0.1";
    static final String READY_PREFIX = "KAFKA_READY ";
    static final String STOPPED_LINE = "KAFKA_STOPPED";

    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final String BROKER_LISTENER = "PLAINTEXT";
    private static final String META_PROPERTIES = "meta.properties";
    /** Only auto-picked ports can be re-picked when another process grabs them first. */
    private static final int MAX_BIND_ATTEMPTS = 3;

    private final Path dataDir;
    private final int requestedPort;
    private final int requestedControllerPort;
    private final Map<String, String> overrides;
    private final Duration startTimeout;

    // Resolved on the first start and then kept, so restart() comes back on the same addresses and
    // clients holding bootstrapServers() keep working.
    private int port;
    private int controllerPort;

    private KafkaRaftServer server;
    private String clusterId;

    private EmbeddedKafkaBroker(Builder b) {
        this.dataDir = b.dataDir.toAbsolutePath().normalize();
        this.requestedPort = b.port;
        this.requestedControllerPort = b.controllerPort;
        this.overrides = Map.copyOf(b.overrides);
        this.startTimeout = b.startTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Formats the data dir if needed, starts broker and controller, and returns only once the
     * broker answers a DescribeCluster request (so callers can create topics right away).
     * Calling it on a running broker does nothing.
     */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        KafkaLogLevels.quietKafkaUnlessConfigured();
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dataDir);
            clusterId = formatIfNeeded();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare Kafka data dir " + dataDir, e);
        }

        boolean firstStart = port == 0 && controllerPort == 0;
        for (int attempt = 1; ; attempt++) {
            if (firstStart) {
                port = requestedPort != 0 ? requestedPort : freePort(requestedControllerPort);
                controllerPort = requestedControllerPort != 0 ? requestedControllerPort : freePort(port);
            }
            try {
                startServer();
                break;
            } catch (RuntimeException e) {
                boolean guessedPortTaken = firstStart
                        && ((requestedPort == 0 && isBindFailure(e, port))
                            || (requestedControllerPort == 0 && isBindFailure(e, controllerPort)));
                if (guessedPortTaken && attempt < MAX_BIND_ATTEMPTS) {
                    // Between freePort() closing its probe socket and Kafka binding, something else
                    // (five services start next to us) may have taken the port. Pick again.
                    LOG.warn("Kafka could not bind an auto-picked port, retrying: {}", e.getMessage());
                    continue;
                }
                if (firstStart) {
                    port = 0;
                    controllerPort = 0;
                }
                throw e;
            }
        }

        try {
            awaitReady();
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
        LOG.info("Kafka broker ready at {} (cluster {}, data {}) in {} ms", bootstrapServers(), clusterId,
                dataDir, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** Graceful shutdown (controlled shutdown, logs flushed and closed); blocks until done. */
    public synchronized void stop() {
        KafkaRaftServer s = server;
        if (s == null) {
            return;
        }
        server = null;
        s.shutdown();
        s.awaitShutdown();
    }

    /** Stops and starts again on the same ports and data dir. */
    public synchronized void restart() {
        stop();
        start();
    }

    @Override
    public void close() {
        stop();
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** {@code 127.0.0.1:PORT}; valid once the broker has been started (also after stop). */
    public synchronized String bootstrapServers() {
        if (port == 0) {
            throw new IllegalStateException("broker has not been started yet, so it has no port");
        }
        return HOST + ":" + port;
    }

    public synchronized int port() {
        return port;
    }

    public synchronized int controllerPort() {
        return controllerPort;
    }

    /** The id written to meta.properties when the data dir was formatted; null before start. */
    public synchronized String clusterId() {
        return clusterId;
    }

    public Path dataDir() {
        return dataDir;
    }

    // ---------------------------------------------------------------------------------------

    /**
     * Formats the data dir unless it already holds meta.properties, and returns the cluster id.
     * Same steps as {@code kafka-storage format -t <random uuid> -c server.properties}: the
     * Formatter writes meta.properties and the bootstrap checkpoint carrying the metadata.version.
     */
    private String formatIfNeeded() throws IOException {
        Optional<String> existing = readClusterId(dataDir);
        if (existing.isPresent()) {
            return existing.get();
        }
        String newId = Uuid.randomUuid().toString();
        try {
            new Formatter()
                    // The formatter narrates to stdout; main() promises stdout carries only our lines.
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(newId)
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(dataDir.toString())
                    .addDirectory(dataDir.toString())
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("formatting Kafka storage in " + dataDir + " failed", e);
        }
        return newId;
    }

    static Optional<String> readClusterId(Path dir) throws IOException {
        Path meta = dir.resolve(META_PROPERTIES);
        if (!Files.exists(meta)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(meta)) {
            p.load(in);
        }
        return Optional.ofNullable(p.getProperty("cluster.id"));
    }

    private void startServer() {
        KafkaConfig config = new KafkaConfig(serverProperties(), false);
        KafkaRaftServer s = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            s.startup();
        } catch (RuntimeException e) {
            // startup() may have brought the controller up before the broker failed; release its
            // ports, threads and the data dir lock before reporting.
            try {
                s.shutdown();
                s.awaitShutdown();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        server = s;
    }

    Map<String, String> serverProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listeners", BROKER_LISTENER + "://" + HOST + ":" + port + ","
                + CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", BROKER_LISTENER + "://" + HOST + ":" + port);
        p.put("inter.broker.listener.name", BROKER_LISTENER);
        p.put("listener.security.protocol.map", BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("log.dirs", dataDir.toString());

        // One node: every internal topic must fit on it, or groups and transactions never work.
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        // The 50 partitions Kafka defaults to buy nothing on one node and cost start-up time, files
        // and mmapped indexes. Only applied when the internal topic is first created.
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.num.partitions", "1");
        // Consumers join immediately instead of waiting 3 s for more members that never come.
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.partitions", "1");
        // Services create their topics explicitly; a typo must fail rather than invent a topic.
        p.put("auto.create.topics.enable", "false");
        // Consumer offsets must outlive a long pause of a service: an orchestrator whose group offsets expired
        // would read session-inputs from the start again. Ten years is "never" for a laptop stack.
        p.put("offsets.retention.minutes", Long.toString(10L * 366 * 24 * 60));

        // Footprint: this shares 2 cores with five services. Kafka's defaults are sized for a
        // dedicated machine (8 I/O threads, 10 background threads, a 128 MiB cleaner buffer
        // allocated on the heap at start-up).
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("group.coordinator.threads", "1");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));

        p.putAll(overrides);
        return p;
    }

    /**
     * KafkaRaftServer.startup() returns once the broker is unfenced, but "ready" for our callers
     * means the client listener answers; asking it is the contract that matters.
     */
    private void awaitReady() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        Map<String, Object> cfg = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        Exception last = null;
        try (Admin admin = Admin.create(cfg)) {
            while (System.nanoTime() < deadline) {
                try {
                    Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000))
                            .nodes().get(5, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for Kafka", e);
                }
                sleep(100);
            }
        }
        throw new IllegalStateException("Kafka at " + bootstrapServers() + " not ready within " + startTimeout, last);
    }

    /** True if Kafka failed to bind {@code port} ("Socket server failed to bind to 127.0.0.1:N"). */
    private static boolean isBindFailure(Throwable e, int port) {
        boolean bind = false;
        boolean mentionsPort = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            String msg = String.valueOf(t.getMessage());
            bind |= t instanceof BindException || msg.contains("Address already in use");
            mentionsPort |= msg.contains(HOST + ":" + port);
        }
        return bind && mentionsPort;
    }

    private static int freePort(int... avoid) {
        for (int i = 0; i < 10; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
                int candidate = s.getLocalPort();
                if (Arrays.stream(avoid).noneMatch(a -> a == candidate)) {
                    return candidate;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free port on " + HOST, e);
            }
        }
        throw new IllegalStateException("cannot find a free port on " + HOST);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        }
    }

    // ---------------------------------------------------------------------------------------

    /**
     * Runs the broker as its own process: {@code --data-dir DIR [--port N] [--controller-port N]
     * [--property key=value]...}. Prints {@code KAFKA_READY 127.0.0.1:PORT} when clients can
     * connect, and on SIGTERM shuts down gracefully and prints {@code KAFKA_STOPPED}.
     */
    public static void main(String[] args) {
        Builder builder = builder();
        boolean hasDataDir = false;
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--data-dir" -> {
                        builder.dataDir(Path.of(value(args, ++i, arg)));
                        hasDataDir = true;
                    }
                    case "--port" -> builder.port(Integer.parseInt(value(args, ++i, arg)));
                    case "--controller-port" -> builder.controllerPort(Integer.parseInt(value(args, ++i, arg)));
                    case "--property" -> {
                        String kv = value(args, ++i, arg);
                        int eq = kv.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--property expects key=value, got " + kv);
                        }
                        builder.property(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            if (!hasDataDir) {
                throw new IllegalArgumentException("--data-dir is required");
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: EmbeddedKafkaBroker --data-dir DIR [--port N] [--controller-port N]"
                    + " [--property key=value]...");
            System.exit(2);
            return;
        }

        EmbeddedKafkaBroker broker = builder.build();
        CountDownLatch stopped = new CountDownLatch(1);
        // Registered before start() so a SIGTERM during start-up still releases the data dir lock.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.stop();
                System.out.println(STOPPED_LINE);
                System.out.flush();
            } finally {
                stopped.countDown();
            }
        }, "kafka-broker-shutdown"));
        try {
            broker.start();
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
            return;
        }
        System.out.println(READY_PREFIX + broker.bootstrapServers());
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    // ---------------------------------------------------------------------------------------

    public static final class Builder {
        private Path dataDir;
        private int port;
        private int controllerPort;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Duration startTimeout = Duration.ofSeconds(60);

        private Builder() {
        }

        /** Required. Created if missing; formatted on first start; reused afterwards. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
            return this;
        }

        /** Client port; 0 (default) picks a free one at first start and keeps it across restart(). */
        public Builder port(int port) {
            this.port = checkPort(port);
            return this;
        }

        /** Controller (KRaft quorum) port; 0 (default) picks a free one at first start. */
        public Builder controllerPort(int controllerPort) {
            this.controllerPort = checkPort(controllerPort);
            return this;
        }

        /** Any broker setting; applied last, so it wins over the defaults chosen here. */
        public Builder property(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** How long start() waits for the broker to answer; 60 s by default. */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
            return this;
        }

        public EmbeddedKafkaBroker build() {
            if (dataDir == null) {
                throw new IllegalStateException("dataDir is required");
            }
            if (port != 0 && port == controllerPort) {
                throw new IllegalStateException("port and controllerPort must differ: " + port);
            }
            return new EmbeddedKafkaBroker(this);
        }

        private static int checkPort(int p) {
            if (p < 0 || p > 65535) {
                throw new IllegalArgumentException("port out of range: " + p);
            }
            return p;
        }
    }
}
