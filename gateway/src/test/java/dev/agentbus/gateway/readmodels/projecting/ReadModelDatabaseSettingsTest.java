package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.gateway.KafkaFacingBeans;
import dev.agentbus.testkit.settings.SettingsContext;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The read models' database settings as the gateway binds them (its Kafka-facing beans are left out). */
class ReadModelDatabaseSettingsTest {

    @Test
    void without_settings_there_is_no_database() {
        ReadModelDatabaseSettings settings = bind(Map.of());

        assertThat(settings).isEqualTo(new ReadModelDatabaseSettings("", "", ""));
        assertThat(settings.configured()).isFalse();
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = SettingsContext.startWithEnvironment("gateway", Map.of(
                "AGENTBUS_DB_URL", "jdbc:postgresql://db:5432/agentbus",
                "AGENTBUS_DB_USER", "agentbus",
                "AGENTBUS_DB_PASSWORD", "pw"), KafkaFacingBeans.ALL)) {
            ReadModelDatabaseSettings settings = ctx.getBean(ReadModelDatabaseSettings.class);

            assertThat(settings).isEqualTo(new ReadModelDatabaseSettings("jdbc:postgresql://db:5432/agentbus",
                    "agentbus", "pw"));
            assertThat(settings.configured()).isTrue();
        }
    }

    @Test
    void a_url_that_is_not_a_postgresql_jdbc_url_stops_the_gateway_naming_the_property() {
        assertThat(SettingsContext.failureOf(() -> bind(Map.of("agentbus.db.url", "postgres://db/agentbus"))))
                .isEqualTo("agentbus.db.url must be a PostgreSQL JDBC URL such as "
                        + "jdbc:postgresql://localhost:5432/agentbus, not 'postgres://db/agentbus'");
    }

    @Test
    void the_password_is_never_printed() {
        assertThat(new ReadModelDatabaseSettings("jdbc:postgresql://db/agentbus", "agentbus", "hunter2").toString())
                .doesNotContain("hunter2");
    }

    private static ReadModelDatabaseSettings bind(Map<String, String> properties) {
        try (ApplicationContext ctx = SettingsContext.start("gateway", properties, KafkaFacingBeans.ALL)) {
            return ctx.getBean(ReadModelDatabaseSettings.class);
        }
    }
}
