package dev.agentbus.gateway.accounts.modelserver;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.accounts.UserRecordTopic;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import java.util.Optional;

/**
 * The users' own model servers on {@code agentbus.user-models} (a {@link UserRecordTopic}: the gateway is its only
 * writer); the orchestrator reads the same topic when it calls a user's server.
 */
@Singleton
class UserModels {
    private final UserRecordTopic<UserModelSettings> topic;

    UserModels(KafkaSettings kafka) throws InterruptedException {
        this.topic = new UserRecordTopic<>(kafka, Topics.USER_MODELS, "gateway-user-models", UserModelSettings.class,
                UserModelSettings::userId, UserModelSettings::version);
    }

    Optional<UserModelSettings> of(String userId) {
        return topic.of(userId);
    }

    /** Writes the settings and waits until the view has them. @return false when the view did not catch up in time */
    boolean put(UserModelSettings settings) throws InterruptedException {
        return topic.put(settings);
    }

    /** Back to the team's server (a tombstone). */
    boolean remove(String userId) throws InterruptedException {
        return topic.remove(userId);
    }

    @PreDestroy
    void close() {
        topic.close();
    }
}
