package dev.agentbus.telemetry.management;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * The management port of a service that serves no HTTP of its own (orchestrator, sandbox-worker, scheduler,
 * memory-service): {@code /health} and {@code /metrics} on it, for probes and Prometheus. The gateway serves both
 * on its own port and ignores this.
 *
 * @param port {@code agentbus.management.port} ({@code AGENTBUS_MANAGEMENT_PORT}); 0, the default, serves nothing
 * @param host {@code agentbus.management.host}: the address to listen on
 */
@ConfigurationProperties("agentbus.management")
public record ManagementSettings(
        @Bindable(defaultValue = "0") int port,
        @Bindable(defaultValue = "0.0.0.0") String host) {

    public ManagementSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("agentbus.management.port must be between 0 and 65535, not " + port);
        }
        host = host == null || host.isBlank() ? "0.0.0.0" : host.strip();
    }
}
