package dev.agentbus.gateway;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.gateway.readmodels.projecting.Projector;
import dev.agentbus.gateway.sessions.SessionDirectory;

/** The gateway beans that connect to Kafka as the context starts: a settings test leaves them out. */
public final class KafkaFacingBeans {
    public static final Class<?>[] ALL = {SessionDirectory.class, CompactedTopicView.class, Projector.class};

    private KafkaFacingBeans() {
    }
}
