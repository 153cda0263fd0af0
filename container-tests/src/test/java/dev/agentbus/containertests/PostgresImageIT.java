package dev.agentbus.containertests;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The PostgreSQL image of {@code deploy/images} ({@code agentbus/postgres:dev}) run by Testcontainers' own
 * {@link PostgreSQLContainer}, declared a compatible substitute for {@code postgres}: the container passes the
 * official image's variables ({@code POSTGRES_USER}, {@code POSTGRES_PASSWORD}, {@code POSTGRES_DB}) and command
 * ({@code postgres -c fsync=off}) and waits for the official image's log lines, so this proves the image honours
 * them. Then the database is used over the network, with the password only.
 */
class PostgresImageIT {
    static final DockerImageName IMAGE = DockerImageName.parse("agentbus/postgres:dev").asCompatibleSubstituteFor("postgres");

    static PostgreSQLContainer<?> postgres;

    @BeforeAll
    static void start() throws Exception {
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (!docker && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("PostgresImageIT needs a Docker engine");
        }
        Assumptions.assumeTrue(docker, "no Docker engine: PostgresImageIT skipped");
        KafkaImageIT.buildImages();
        postgres = new PostgreSQLContainer<>(IMAGE).withDatabaseName("agentbus").withUsername("agentbus")
                .withPassword("image-check").withStartupTimeout(Duration.ofMinutes(2));
        postgres.start();
    }

    @AfterAll
    static void stop() {
        if (postgres != null) {
            postgres.stop();
        }
    }

    @Test
    void the_database_user_and_password_of_the_official_variables_work_over_the_network() throws Exception {
        try (Connection c = DriverManager.getConnection(postgres.getJdbcUrl(), "agentbus", "image-check");
             Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA gateway");
            st.execute("CREATE TABLE gateway.check_table (id int PRIMARY KEY, note text)");
            st.execute("INSERT INTO gateway.check_table VALUES (1, 'stored')");
            try (ResultSet rs = st.executeQuery(
                    "SELECT current_database(), current_user, (SELECT note FROM gateway.check_table WHERE id = 1),"
                            + " current_setting('fsync')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("agentbus");
                assertThat(rs.getString(2)).isEqualTo("agentbus");
                assertThat(rs.getString(3)).isEqualTo("stored");
                assertThat(rs.getString(4)).as("the container's command reached the server").isEqualTo("off");
            }
        }
        assertThatThrownBy(() -> DriverManager.getConnection(postgres.getJdbcUrl(), "agentbus", "wrong").close())
                .as("network connections need the password").isInstanceOf(SQLException.class)
                .hasMessageContaining("password authentication failed");
    }
}
