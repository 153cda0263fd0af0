package dev.agentbus.scheduler.schedulingwaits;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

import java.time.Clock;

/** Starts the wait scheduler with the application context and stops it with it. */
@Context
class SchedulerRuntime {
    private final KafkaSettings kafka;
    private WaitScheduler scheduler;

    public SchedulerRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        scheduler = new WaitScheduler(kafka, Clock.systemUTC());
        scheduler.start();
    }

    @PreDestroy
    void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
