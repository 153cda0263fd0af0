package dev.agentbus.memory.countingfeedback;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

/**
 * Starts counting insight uses and votes with the application context. Always on, distillation or not: insights a
 * person kept from earlier distillations are still injected and voted on.
 */
@Context
class UsageRuntime {
    private final KafkaSettings kafka;
    private UsageCounter counter;

    UsageRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        counter = new UsageCounter(kafka);
        counter.start();
    }

    @PreDestroy
    void stop() {
        if (counter != null) {
            counter.close();
        }
    }
}
