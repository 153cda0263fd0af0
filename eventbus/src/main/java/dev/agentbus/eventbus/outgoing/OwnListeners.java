package dev.agentbus.eventbus.outgoing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ports this JVM's gateway listens on, registered when it starts. In the standalone every service runs in the
 * gateway's JVM, so a user's URL that names one of these ports on one of this host's addresses is the gateway itself
 * and is refused even where the operator's allow-list opens the address (a test stack's 127.0.0.1, a LAN range).
 * Services in other processes do not see these; the {@link OutgoingPolicy#HOP_HEADER} stops those requests at the
 * gateway's door instead.
 */
public final class OwnListeners {
    private static final Set<Integer> PORTS = ConcurrentHashMap.newKeySet();

    private OwnListeners() {
    }

    public static void add(int port) {
        if (port > 0) {
            PORTS.add(port);
        }
    }

    public static void remove(int port) {
        PORTS.remove(port);
    }

    static boolean has(int port) {
        return PORTS.contains(port);
    }
}
