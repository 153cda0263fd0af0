package dev.agentbus.scheduler.inbox;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

import java.time.Clock;

/** Starts the inbox scheduler with the application context and stops it with it. */
@Context
class InboxRuntime {
    private final KafkaSettings kafka;
    private InboxScheduler scheduler;

    public InboxRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        scheduler = new InboxScheduler(kafka, Clock.systemUTC());
        scheduler.start();
    }

    @PreDestroy
    void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
