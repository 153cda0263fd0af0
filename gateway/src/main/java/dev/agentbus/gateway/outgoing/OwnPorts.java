package dev.agentbus.gateway.outgoing;

import dev.agentbus.eventbus.outgoing.OwnListeners;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

/**
 * Tells the outgoing policy which port this gateway listens on ({@link OwnListeners}), so that the services in its
 * JVM (the standalone's) refuse a user's URL that points back at it, even where the operator's allow-list opens
 * the address. The port is forgotten when the gateway stops, so another server that gets it later is not refused.
 */
@Singleton
class OwnPorts {
    private volatile int port;

    @EventListener
    void started(ServerStartupEvent event) {
        port = event.getSource().getPort();
        OwnListeners.add(port);
    }

    @EventListener
    void stopped(ServerShutdownEvent event) {
        forget();
    }

    @PreDestroy
    void forget() {
        if (port > 0) {
            OwnListeners.remove(port);
            port = 0;
        }
    }
}
