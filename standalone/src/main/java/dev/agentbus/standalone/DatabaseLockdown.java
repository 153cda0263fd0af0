package dev.agentbus.standalone;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Who may use the embedded PostgreSQL, and as what. zonky's server trusted every local connection (any account on
 * the host could connect as superuser, read the TOTP secrets and run programs with {@code COPY … TO PROGRAM}). Here:
 * <ul>
 *   <li>{@code pg_hba.conf} asks every connection for a password (scram-sha-256), local sockets included;</li>
 *   <li>the gateway connects as {@value #GATEWAY_ROLE}, a role with no privilege beyond owning its database (and so
 *       its schema): not a superuser, cannot create roles or databases, cannot run programs or read server
 *       files;</li>
 *   <li>a data directory made by an earlier version, its objects owned by {@code postgres}, is handed over to that
 *       role at the first start with this code.</li>
 * </ul>
 */
final class DatabaseLockdown {
    static final String GATEWAY_ROLE = "agentbus_gateway";

    static final String HBA = """
            # Written by Agentbus at every start: every connection needs a password (scram-sha-256), even on a local
            # socket. The passwords are in <data dir>/postgres-passwords.
            # TYPE  DATABASE  USER  ADDRESS       METHOD
            local   all       all                 scram-sha-256
            host    all       all   127.0.0.1/32  scram-sha-256
            host    all       all   ::1/128       scram-sha-256
            """;

    private DatabaseLockdown() {
    }

    /** True if {@code pg_hba.conf} lets anyone in without a password (a data directory of an earlier version). */
    static boolean trustsConnections(Path dataDir) throws IOException {
        Path hba = dataDir.resolve("pg_hba.conf");
        return Files.exists(hba) && Files.readAllLines(hba).stream().map(String::strip)
                .filter(line -> !line.startsWith("#") && !line.isEmpty())
                .anyMatch(line -> line.matches(".*\\s(trust|peer|ident)(\\s.*)?"));
    }

    /**
     * Sets the superuser's password, then writes {@link #HBA} and has the running server reload it. Called on every
     * start: it changes nothing when all is already so.
     */
    static void requirePasswords(EmbeddedPostgres server, Path dataDir, DatabasePasswords passwords)
            throws IOException, SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            // Before pg_hba.conf asks for it: a password set after would lock the launcher itself out.
            s.execute("ALTER ROLE postgres PASSWORD '" + passwords.superuser() + "'");
            Path hba = dataDir.resolve("pg_hba.conf");
            if (!Files.exists(hba) || !Files.readString(hba, StandardCharsets.UTF_8).equals(HBA)) {
                Files.writeString(hba, HBA, StandardCharsets.UTF_8);
                try (ResultSet rs = s.executeQuery("SELECT pg_reload_conf()")) {
                    rs.next();
                }
            }
        }
    }

    /**
     * Makes the gateway's role and its database, or brings them up to date: the role's password is the one in the
     * file, and the database and everything in it belong to the role.
     */
    static void prepareGatewayDatabase(EmbeddedPostgres server, String database, DatabasePasswords passwords)
            throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            boolean roleExists;
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + GATEWAY_ROLE + "'")) {
                roleExists = rs.next();
            }
            if (!roleExists) {
                s.execute("CREATE ROLE " + GATEWAY_ROLE + " LOGIN");
            }
            s.execute("ALTER ROLE " + GATEWAY_ROLE + " WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
                    + "NOBYPASSRLS NOINHERIT PASSWORD '" + passwords.gateway() + "'");
            boolean databaseExists;
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
                databaseExists = rs.next();
            }
            if (databaseExists) {
                s.execute("ALTER DATABASE " + database + " OWNER TO " + GATEWAY_ROLE);
            } else {
                s.execute("CREATE DATABASE " + database + " OWNER " + GATEWAY_ROLE);
            }
            // No other role connects to it, and the gateway's role to no other database.
            s.execute("REVOKE ALL ON DATABASE " + database + " FROM PUBLIC");
            s.execute("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC");
        }
        try (Connection c = server.getDatabase("postgres", database).getConnection();
             Statement s = c.createStatement()) {
            s.execute(HAND_OVER);
        }
    }

    /**
     * What an earlier version made as {@code postgres} in the database (the gateway's schema, its tables and
     * Flyway's history) now belongs to the gateway's role. {@code REASSIGN OWNED BY postgres} would be one line, but
     * PostgreSQL refuses it for the bootstrap superuser. Tables first: their sequences follow them.
     */
    private static final String HAND_OVER = """
            DO $$
            DECLARE
                r record;
            BEGIN
                FOR r IN SELECT n.nspname FROM pg_namespace n
                         WHERE n.nspowner = 'postgres'::regrole AND n.nspname NOT LIKE 'pg\\_%'
                           AND n.nspname NOT IN ('information_schema', 'public') LOOP
                    EXECUTE format('ALTER SCHEMA %I OWNER TO agentbus_gateway', r.nspname);
                END LOOP;
                FOR r IN SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE c.relowner = 'postgres'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                           AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' LOOP
                    EXECUTE format(CASE r.relkind WHEN 'v' THEN 'ALTER VIEW %I.%I OWNER TO agentbus_gateway'
                                                  WHEN 'm' THEN 'ALTER MATERIALIZED VIEW %I.%I OWNER TO agentbus_gateway'
                                                  WHEN 'f' THEN 'ALTER FOREIGN TABLE %I.%I OWNER TO agentbus_gateway'
                                                  ELSE 'ALTER TABLE %I.%I OWNER TO agentbus_gateway' END,
                                   r.nspname, r.relname);
                END LOOP;
                FOR r IN SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE c.relowner = 'postgres'::regrole AND c.relkind = 'S'
                           AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' LOOP
                    EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO agentbus_gateway', r.nspname, r.relname);
                END LOOP;
            END
            $$""";
}
