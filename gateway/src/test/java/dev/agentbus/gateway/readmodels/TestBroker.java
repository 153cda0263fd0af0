package dev.agentbus.gateway.readmodels;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;

import java.nio.file.Path;

/**
 * A real single-node Kafka broker for a gateway test class, on a free port, with every topic of the product made
 * (three partitions each, as the services expect), beside {@link TestGateway}. The routes tests start one per class.
 */
public final class TestBroker implements AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final KafkaSettings kafka;

    private TestBroker(EmbeddedKafkaBroker broker) {
        this.broker = broker;
        this.kafka = new KafkaSettings(broker.bootstrapServers(), 3, "0");
    }

    public static TestBroker start(Path dataDir) {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dataDir).port(0).build();
        broker.start();
        TestBroker started = new TestBroker(broker);
        TopicAdmin.ensureTopics(started.kafka);
        return started;
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Settings for a client of this broker (a log writer, a topic view), instance id "0". */
    public KafkaSettings kafka() {
        return kafka;
    }

    @Override
    public void close() {
        broker.close();
    }
}
