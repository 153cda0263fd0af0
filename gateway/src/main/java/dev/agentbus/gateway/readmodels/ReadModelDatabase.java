package dev.agentbus.gateway.readmodels;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpStatus;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The gateway's PostgreSQL database, where its read models live (docs/read-models.md), or the fact that there is
 * none: without {@code agentbus.db.url} the gateway runs exactly as before and the read-model endpoints answer 503.
 *
 * <p>Every table is in the schema {@value #SCHEMA}, so a database shared by several services stays partitioned by
 * owner (invariant 8); the pool's connections use that schema, so SQL names tables without it. The pool does not
 * connect at start-up: a database that is down when the gateway starts delays the read models, not the gateway.
 */
public final class ReadModelDatabase implements AutoCloseable {
    public static final String SCHEMA = "gateway";
    /** Migrations of this schema only: in the standalone JVM every service's resources share one classpath. */
    static final String MIGRATIONS = "classpath:db/migration/gateway";

    private static final String NOT_CONFIGURED = "PostgreSQL is not configured: set AGENTBUS_DB_URL "
            + "(agentbus.db.url) to use the read models (see docs/read-models.md)";

    /** A piece of JDBC work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final HikariDataSource pool;
    private volatile boolean migrated;

    private ReadModelDatabase(HikariDataSource pool) {
        this.pool = pool;
    }

    public static ReadModelDatabase notConfigured() {
        return new ReadModelDatabase(null);
    }

    public static ReadModelDatabase connect(String jdbcUrl, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("gateway-read-models");
        config.setJdbcUrl(jdbcUrl);
        if (user != null && !user.isBlank()) {
            config.setUsername(user);
        }
        if (password != null && !password.isBlank()) {
            config.setPassword(password);
        }
        config.setSchema(SCHEMA);
        // The projector writes each batch's rows with JDBC batches; the driver can send them as multi-row INSERTs.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        config.setMaximumPoolSize(8);
        config.setConnectionTimeout(5_000);
        // Do not connect now: the projector retries until the database answers, and queries say 503 meanwhile.
        config.setInitializationFailTimeout(-1);
        return new ReadModelDatabase(new HikariDataSource(config));
    }

    public boolean configured() {
        return pool != null;
    }

    /** Creates the schema or brings it up to date (Flyway; a no-op when it is current). */
    public synchronized void migrate() {
        Flyway.configure()
                .dataSource(requirePool())
                .schemas(SCHEMA)
                .defaultSchema(SCHEMA)
                .createSchemas(true)
                .locations(MIGRATIONS)
                .load()
                .migrate();
        migrated = true;
    }

    /**
     * Migrates once per process: the accounts tables must exist before the first login, which may come before the
     * projector (the other caller of {@link #migrate}) got to it.
     */
    public void ensureMigrated() {
        if (!migrated) {
            migrate();
        }
    }

    /** Runs work in one transaction: committed when it returns, rolled back when it throws. */
    public <T> T transaction(Work<T> work) throws SQLException {
        try (Connection c = requirePool().getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Runs work for an HTTP request, in one transaction: 503 with the reason when there is no database or it fails,
     * since neither is the client's fault and a retry may work.
     */
    public <T> T query(Work<T> work) {
        requireConfigured();
        try {
            ensureMigrated();
            return transaction(work);
        } catch (SQLException | org.flywaydb.core.api.FlywayException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL is unavailable: " + e.getMessage());
        }
    }

    /**
     * A connection for work that outlives the request handler (a streamed export); the caller closes it. 503 like
     * {@link #query} when there is no database or it does not answer.
     */
    public Connection open() {
        requireConfigured();
        try {
            return pool.getConnection();
        } catch (SQLException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL is unavailable: " + e.getMessage());
        }
    }

    /** Throws the 503 a read-model endpoint answers when there is no database; for checks before any work. */
    public void requireConfigured() {
        if (!configured()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
        }
    }

    private HikariDataSource requirePool() {
        if (pool == null) {
            throw new IllegalStateException(NOT_CONFIGURED);
        }
        return pool;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }
}
