package dev.agentbus.standalone;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.DataDir;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.gateway.accounts.users.FirstAdmin;
import dev.agentbus.gateway.auth.GatewayToken;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.orchestrator.config.LlmSettings;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole stack in one JVM, for a laptop or a demo: a real single-node KRaft Kafka broker and a real PostgreSQL
 * (for the gateway's read models), both with their data under the data directory, then the five services, each in
 * its own Micronaut application context. The contexts share nothing but the broker: they talk only through Kafka
 * topics, exactly as when they run as separate processes. With {@code AGENTBUS_DB_URL} set, the gateway uses that
 * database instead and no PostgreSQL is started.
 */
public final class Standalone implements AutoCloseable {
    /** The data directory's own directories, made owner-only before the services start. */
    private static final List<String> PRIVATE_DIRECTORIES = List.of("kafka", "workspaces");

    private final EmbeddedKafkaBroker broker;
    private final List<ApplicationContext> contexts = new ArrayList<>();
    private final Path dataDir;
    private EmbeddedDatabase database;
    private ApplicationContext gateway;
    private ApplicationContext orchestrator;

    public Standalone(Path dataDir, int kafkaPort) {
        this.dataDir = dataDir;
        this.broker = EmbeddedKafkaBroker.builder().dataDir(dataDir.resolve("kafka")).port(kafkaPort).build();
    }

    public static void main(String[] args) {
        int kafkaPort = Integer.parseInt(env("AGENTBUS_KAFKA_PORT", "9092"));
        Standalone stack = new Standalone(DataDir.of(System.getenv("AGENTBUS_DATA_DIR")), kafkaPort);
        Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "agentbus-shutdown"));
        try {
            stack.start(Map.of());
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            // The innermost message says what is wrong (a bad LLM_URL, a port in use), without the bean chain.
            System.err.println("agentbus: could not start: " + (root.getMessage() == null ? root : root.getMessage()));
            stack.close();
            System.exit(1);
        }
        stack.printBanner();
    }

    /**
     * Starts the broker, PostgreSQL and the five services; {@code overrides} are extra properties for every service.
     * An {@code agentbus.db.url} among them (or {@code AGENTBUS_DB_URL}) is used instead of an embedded PostgreSQL.
     */
    public void start(Map<String, Object> overrides) {
        try {
            startAll(overrides);
        } catch (RuntimeException e) {
            // Whatever did start stops again: a broker left running by a failed start outlives its caller, and
            // dies badly (it halts the JVM) once its data directory is gone.
            close();
            throw e;
        }
    }

    private void startAll(Map<String, Object> overrides) {
        // Before anything writes there: Kafka's segments (every conversation), the workspaces, the database and the
        // secrets are the owner's alone. An existing data directory (0755 from an earlier version) is closed too.
        try {
            DataDir.makePrivate(dataDir);
            for (String top : PRIVATE_DIRECTORIES) {
                DataDir.makePrivate(dataDir.resolve(top));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not make the data directory " + dataDir + " private: "
                    + e.getMessage(), e);
        }
        broker.start();
        Map<String, Object> gatewayProps = new HashMap<>(GatewayApplication.properties());
        String externalDb = env("AGENTBUS_DB_URL", "");
        if (!overrides.containsKey("agentbus.db.url") && externalDb.isBlank()) {
            database = EmbeddedDatabase.start(dataDir.resolve("postgres"),
                    Integer.parseInt(env("AGENTBUS_POSTGRES_PORT", "0")));
            gatewayProps.put("agentbus.db.url", database.jdbcUrl());
            gatewayProps.put("agentbus.db.user", database.user());
            gatewayProps.put("agentbus.db.password", database.password());
        }
        Map<String, Object> common = new HashMap<>();
        common.put("agentbus.kafka.bootstrap-servers", broker.bootstrapServers());
        common.put("agentbus.data-dir", dataDir.toString());
        common.putAll(overrides);
        // Downstream services first, so the gateway only answers once everything behind it runs.
        orchestrator = startService(OrchestratorApplication.SERVICE, common, Map.of());
        startService(SandboxWorkerApplication.SERVICE, common, Map.of());
        startService(SchedulerApplication.SERVICE, common, Map.of());
        startService(MemoryServiceApplication.SERVICE, common, Map.of());
        gateway = startService(GatewayApplication.SERVICE, common, gatewayProps);
        gateway.getBean(EmbeddedServer.class).start();
        closeTopLevel();
    }

    /**
     * What the services made at the top of the data directory (the secret files, a checkpoints directory) is made
     * owner-only too, in case one of them was made with the defaults: the 0700 root already keeps others out, this
     * keeps it so if someone opens the root.
     */
    private void closeTopLevel() {
        try (java.util.stream.Stream<Path> entries = Files.list(dataDir)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    DataDir.makePrivate(entry);
                } else if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-------"));
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            System.err.println("agentbus: could not close " + dataDir + "'s entries to other users: " + e);
        }
    }

    private ApplicationContext startService(String service, Map<String, Object> common, Map<String, Object> own) {
        Map<String, Object> props = new HashMap<>(own);
        props.putAll(common);
        props.put("agentbus.service", service);
        ApplicationContext ctx = ApplicationContext.builder().properties(props).start();
        contexts.add(ctx);
        return ctx;
    }

    public String gatewayUrl() {
        return gateway.getBean(EmbeddedServer.class).getURL().toString();
    }

    public String token() {
        return gateway.getBean(GatewayToken.class).value();
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** The JDBC URL of the read models' database: the embedded one's, or the one configured. */
    public String databaseUrl() {
        return database != null ? database.jdbcUrl()
                : String.valueOf(gateway.getProperty("agentbus.db.url", String.class).orElse(""));
    }

    /** The role the gateway connects to the database as (the embedded one's, or the configured one). */
    public String databaseUser() {
        return database != null ? database.user()
                : String.valueOf(gateway.getProperty("agentbus.db.user", String.class).orElse(""));
    }

    /** That role's password. */
    public String databasePassword() {
        return database != null ? database.password()
                : String.valueOf(gateway.getProperty("agentbus.db.password", String.class).orElse(""));
    }

    /** The data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** The embedded broker, for operations such as a restart (the fault tests use it). */
    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    private void printBanner() {
        String modelUrl = orchestrator.getBean(LlmSettings.class).modelSettings().baseUrl();
        String model = orchestrator.getBean(LlmSettings.class).modelSettings().model();
        String modelCheck = checkModelServer(modelUrl);
        System.out.printf("""

                Agentbus is running (data in %s).
                  gateway:       %s
                  token:         AGENTBUS_TOKEN=%s (acts as the admin)
                  web login:     %s
                  kafka:         %s
                  postgres:      %s%s
                  model server:  %s (model: %s)%s

                Try:  AGENTBUS_TOKEN=%s bin/agentbus run "create hello.txt containing hi, then show it"
                Stop with Ctrl-C.
                %n""", dataDir, gatewayUrl(), token(), adminLogin(), bootstrapServers(), databaseUrl(),
                database == null ? "" : " (user " + database.user() + ", password in "
                        + database.dataDir().resolveSibling(EmbeddedDatabase.PASSWORDS_FILE) + ")", modelUrl,
                model == null || model.isBlank() ? "the server's first" : model, modelCheck, token());
    }

    /** The first admin's login: the generated password is shown here once, on the start that made it. */
    private String adminLogin() {
        FirstAdmin admin = gateway.getBean(FirstAdmin.class);
        return admin.generatedPassword().map(p -> "admin / " + p + " (also in " + admin.passwordFile() + ")")
                .orElse("admin (password: AGENTBUS_ADMIN_PASSWORD, or " + admin.passwordFile() + ")");
    }

    /** Says plainly whether the model server answers, since nothing works without it. */
    static String checkModelServer(String baseUrl) {
        try {
            HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build().send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/models")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? "\n                 answers: OK"
                    : "\n                 WARNING: it answered HTTP " + r.statusCode() + " to GET /models";
        } catch (Exception e) {
            return "\n                 WARNING: it does not answer (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ").\n"
                    + "                 Start your model server or set LLM_URL, e.g. LLM_URL=http://localhost:11434/v1";
        }
    }

    @Override
    public synchronized void close() {
        for (int i = contexts.size() - 1; i >= 0; i--) {
            try {
                contexts.get(i).close();
            } catch (RuntimeException e) {
                System.err.println("agentbus: error while stopping a service: " + e);
            }
        }
        contexts.clear();
        if (database != null) {
            database.close();
            database = null;
        }
        broker.close();
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
