package dev.agentbus.gateway.auth;

import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Checks every open connection's credential every {@link #EVERY}: what this replica revoked is closed at once
 * ({@link OpenConnections}), but a key revoked through another replica, or a login that expired, is only seen here.
 */
@Context
class OpenConnectionsSweep {
    static final Duration EVERY = Duration.ofSeconds(30);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("gateway-connection-sweep").factory());

    OpenConnectionsSweep(OpenConnections connections, Authenticator authenticator) {
        long every = EVERY.toMillis();
        timer.scheduleWithFixedDelay(() -> connections.closeAllRevoked(authenticator::stillValid), every, every,
                TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
