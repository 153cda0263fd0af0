package dev.agentbus.eventbus;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The Kafka settings as a service binds them, from properties or environment variables, and checks them. */
class KafkaSettingsTest {

    @Test
    void without_settings_a_service_reaches_the_local_broker_as_replica_0() {
        assertThat(bind(Map.of())).isEqualTo(new KafkaSettings("localhost:9092", 3, "0"));
    }

    @Test
    void the_environment_variables_override_the_defaults() {
        try (ApplicationContext ctx = context(PropertySource.of("env", Map.of(
                "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS", "k1:29092,k2:29092",
                "AGENTBUS_KAFKA_PARTITIONS", "6",
                "AGENTBUS_INSTANCE_ID", "b"), PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE))) {
            assertThat(ctx.getBean(KafkaSettings.class)).isEqualTo(new KafkaSettings("k1:29092,k2:29092", 6, "b"));
        }
    }

    @Test
    void a_partition_count_below_one_stops_the_service_naming_the_property() {
        assertThat(failureOf(Map.of("agentbus.kafka.partitions", "0")))
                .isEqualTo("agentbus.kafka.partitions must be at least 1, not 0");
    }

    @Test
    void a_partition_count_that_is_not_a_number_stops_the_service_instead_of_falling_back_to_the_default() {
        assertThat(failureOf(Map.of("agentbus.kafka.partitions", "three")))
                .isEqualTo("agentbus.kafka.partitions must be a whole number, not 'three'");
    }

    @Test
    void a_blank_instance_id_stops_the_service() {
        assertThat(failureOf(Map.of("agentbus.instance-id", " "))).isEqualTo("agentbus.instance-id must not be blank");
    }

    private static KafkaSettings bind(Map<String, Object> properties) {
        try (ApplicationContext ctx = context(PropertySource.of("test", properties))) {
            return ctx.getBean(KafkaSettings.class);
        }
    }

    /** The message the service stops with (Micronaut may wrap it in its own exceptions). */
    private static String failureOf(Map<String, Object> properties) {
        Throwable failure = catchThrowable(() -> bind(properties));
        assertThat(failure).isNotNull();
        while (failure.getCause() != null) {
            failure = failure.getCause();
        }
        return failure.getMessage();
    }

    /** Only the given settings: the machine's own environment must not change the outcome. */
    private static ApplicationContext context(PropertySource settings) {
        return ApplicationContext.builder().enableDefaultPropertySources(false).propertySources(settings).start();
    }
}
