package dev.agentbus.gateway.inbox;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.topics.Topics;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;

/** The gateway's view of {@code agentbus.inbox}, read from the start and followed, closed with the context. */
@Factory
class InboxBeans {

    @Context
    @Bean(preDestroy = "close")
    CompactedTopicView<InboxTask> inboxView(KafkaSettings kafka) {
        TopicAdmin.ensureTopics(kafka);
        return new CompactedTopicView<>(kafka, Topics.INBOX.name(), "gateway-inbox",
                bytes -> EventCodec.decodeValue(bytes, InboxTask.class)).start();
    }
}
