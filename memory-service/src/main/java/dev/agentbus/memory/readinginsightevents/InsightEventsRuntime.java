package dev.agentbus.memory.readinginsightevents;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;

/**
 * Starts forwarding the log's insight events (uses, votes, the agent's changes) with the application context. Always
 * on, distillation or not: insights a person kept from earlier distillations are still injected and voted on, and the
 * agent's {@code manage_memory} needs no model server here.
 */
@Context
class InsightEventsRuntime {
    private final KafkaSettings kafka;
    private InsightEventForwarder forwarder;

    InsightEventsRuntime(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        forwarder = new InsightEventForwarder(kafka);
        forwarder.start();
    }

    @PreDestroy
    void stop() {
        if (forwarder != null) {
            forwarder.close();
        }
    }
}
