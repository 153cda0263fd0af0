package dev.agentbus.memory.distilling;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.modelclient.ModelClient;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the distiller and the rebuilder with the application context when {@code agentbus.memory.distill.enabled}
 * is true: both need the model server.
 */
@Context
@Requires(property = "agentbus.memory.distill.enabled", value = "true")
class DistillRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(DistillRuntime.class);

    private final KafkaSettings kafka;
    private final DistillSettings settings;
    private final ModelServerSettings server;
    private Distiller distiller;
    private Rebuilder rebuilder;

    DistillRuntime(KafkaSettings kafka, DistillSettings settings, ModelServerSettings server) {
        this.kafka = kafka;
        this.settings = settings;
        this.server = server;
    }

    @PostConstruct
    void start() {
        TopicAdmin.ensureTopics(kafka);
        distiller = new Distiller(kafka, new ModelClient(server.forExtraction(settings)), settings);
        distiller.start();
        rebuilder = new Rebuilder(kafka, new Extractor(new ModelClient(server.forExtraction(settings)),
                settings.maxTurnChars()), settings.rebuildConcurrency(),
                new Refiner(kafka, new ModelClient(server.forExtraction(settings))));
        rebuilder.start();
        LOG.info("distilling insights from completed turns with {}", server);
    }

    @PreDestroy
    void stop() {
        if (rebuilder != null) {
            rebuilder.close();
        }
        if (distiller != null) {
            distiller.close();
        }
    }
}
