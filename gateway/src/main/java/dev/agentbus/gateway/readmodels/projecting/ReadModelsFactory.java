package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read models' beans: the database ({@link ReadModelDatabaseSettings}) and the projector, which runs only when
 * there is a database. Without one the gateway works as before and the read-model endpoints answer 503.
 */
@Factory
class ReadModelsFactory {
    private static final Logger LOG = LoggerFactory.getLogger(ReadModelsFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    ReadModelDatabase readModelDatabase(ReadModelDatabaseSettings db) {
        if (!db.configured()) {
            LOG.info("read models: no PostgreSQL configured (AGENTBUS_DB_URL); their endpoints answer 503");
            return ReadModelDatabase.notConfigured();
        }
        return ReadModelDatabase.connect(db.url(), db.user(), db.password());
    }

    @Context
    @Bean(preDestroy = "close")
    Projector projector(ReadModelDatabase database, KafkaSettings kafka) {
        Projector projector = new Projector(database, kafka);
        return database.configured() ? projector.start() : projector;
    }
}
