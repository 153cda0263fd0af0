package dev.agentbus.gateway.inbox;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * Limits of the inbox: {@code agentbus.inbox.*} (environment: {@code AGENTBUS_INBOX_MAX_DELAY},
 * {@code AGENTBUS_INBOX_MAX_QUEUED}). Checked when the gateway starts; see docs/configuration.md.
 *
 * @param maxDelay  how far ahead a task may be queued; a later {@code at} is refused
 * @param maxQueued how many tasks one user may have waiting at once
 */
@ConfigurationProperties("agentbus.inbox")
record InboxSettings(
        @Bindable(defaultValue = "365d") Duration maxDelay,
        @Bindable(defaultValue = "100") int maxQueued) {

    InboxSettings {
        if (maxDelay == null || maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("agentbus.inbox.max-delay must be positive, not " + maxDelay);
        }
        if (maxQueued < 1) {
            throw new IllegalArgumentException("agentbus.inbox.max-queued must be at least 1, not " + maxQueued);
        }
    }
}
