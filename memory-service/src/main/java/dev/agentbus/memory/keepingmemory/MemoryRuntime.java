package dev.agentbus.memory.keepingmemory;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

import java.time.Clock;

/** Starts the memory keeper with the application context and stops it with it. */
@Context
class MemoryRuntime {
    private final KafkaSettings kafka;
    private MemoryKeeper keeper;

    public MemoryRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        keeper = new MemoryKeeper(kafka, Clock.systemUTC());
        keeper.start();
    }

    @PreDestroy
    void stop() {
        if (keeper != null) {
            keeper.close();
        }
    }
}
