package dev.agentbus.eventbus;

import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default broker address holds a colon: it once had to be quoted in a placeholder ({@code ${key:`host:port`}}),
 * or Micronaut read {@code ${key:localhost:9092}} as "key, else the property localhost, else 9092". The settings are a
 * typed record now ({@link KafkaSettings}); this keeps the address whole. More cases in {@link KafkaSettingsTest}.
 */
class KafkaSettingsFactoryTest {

    @Test
    void without_settings_a_service_reaches_the_local_broker() {
        try (ApplicationContext ctx = ApplicationContext.run()) {
            KafkaSettings kafka = ctx.getBean(KafkaSettings.class);
            assertThat(kafka.bootstrapServers()).isEqualTo("localhost:9092");
            assertThat(kafka.partitions()).isEqualTo(3);
            assertThat(kafka.instanceId()).isEqualTo("0");
        }
    }

    @Test
    void settings_win_over_the_defaults() {
        try (ApplicationContext ctx = ApplicationContext.run(Map.of("agentbus.kafka.bootstrap-servers", "k1:29092,k2:29092",
                "agentbus.kafka.partitions", "6", "agentbus.instance-id", "b"))) {
            KafkaSettings kafka = ctx.getBean(KafkaSettings.class);
            assertThat(kafka.bootstrapServers()).isEqualTo("k1:29092,k2:29092");
            assertThat(kafka.partitions()).isEqualTo(6);
        }
    }
}
