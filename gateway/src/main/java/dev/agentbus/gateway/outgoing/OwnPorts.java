package dev.agentbus.gateway.outgoing;

import dev.agentbus.eventbus.outgoing.OwnListeners;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;

/**
 * Tells the outgoing policy which port this gateway listens on ({@link OwnListeners}), so that the services in its
 * JVM (the standalone's) refuse a user's URL that points back at it, even where the operator's allow-list opens
 * the address.
 */
@Singleton
class OwnPorts {
    @EventListener
    void started(ServerStartupEvent event) {
        OwnListeners.add(event.getSource().getPort());
    }

    @EventListener
    void stopped(ServerShutdownEvent event) {
        try {
            OwnListeners.remove(event.getSource().getPort());
        } catch (RuntimeException portGone) {
            // a server that never bound has no port to forget
        }
    }
}
