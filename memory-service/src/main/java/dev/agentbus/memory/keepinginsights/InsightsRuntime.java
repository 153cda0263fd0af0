package dev.agentbus.memory.keepinginsights;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

import java.time.Clock;

/**
 * Starts the insight keeper with the application context and stops it with it. It always runs, distillation on or
 * off: a person may still edit, delete or clear what was distilled earlier.
 */
@Context
class InsightsRuntime {
    private final KafkaSettings kafka;
    private InsightKeeper keeper;

    InsightsRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        keeper = new InsightKeeper(kafka, Clock.systemUTC());
        keeper.start();
    }

    @PreDestroy
    void stop() {
        if (keeper != null) {
            keeper.close();
        }
    }
}
