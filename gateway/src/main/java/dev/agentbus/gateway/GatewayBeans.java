package dev.agentbus.gateway;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaHealth;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

import java.time.Duration;

/** The gateway's Kafka-facing parts, created once per application context and closed with it. */
@Factory
class GatewayBeans {

    @Context
    @Bean(preDestroy = "close")
    SessionDirectory sessionDirectory(KafkaSettings kafka) throws InterruptedException {
        TopicAdmin.ensureTopics(kafka);
        SessionDirectory directory = new SessionDirectory(kafka);
        directory.start();
        // Serve only once the view holds every session of the log, so none answers 404 after a restart.
        if (!directory.awaitCaughtUp(Duration.ofSeconds(120))) {
            throw new IllegalStateException("could not read the session log within 120 s");
        }
        return directory;
    }

    @Singleton
    @Bean(preDestroy = "close")
    InputSender inputSender(KafkaSettings kafka) {
        return new InputSender(kafka);
    }

    @Context
    @Bean(preDestroy = "close")
    CompactedTopicView<MemoryDocument> memoryView(KafkaSettings kafka) {
        return new CompactedTopicView<>(kafka, Topics.USER_MEMORY.name(), "gateway-memory",
                bytes -> EventCodec.decodeValue(bytes, MemoryDocument.class)).start();
    }

    @Singleton
    @Bean(preDestroy = "close")
    KafkaHealth kafkaHealth(KafkaSettings kafka) {
        return new KafkaHealth(kafka);
    }
}
