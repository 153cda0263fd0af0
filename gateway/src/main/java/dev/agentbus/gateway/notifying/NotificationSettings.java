package dev.agentbus.gateway.notifying;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * How notifications are delivered: {@code agentbus.notifications.*} (environment: {@code
 * AGENTBUS_NOTIFICATIONS_POLL_INTERVAL}, {@code ..._WEBHOOK_TIMEOUT}, {@code ..._WEBHOOK_ATTEMPTS},
 * {@code ..._WEBHOOK_BACKOFF}). Checked when the gateway starts; see docs/configuration.md.
 *
 * @param pollInterval   how often the gateway looks for new notifications to push to live streams and webhooks
 * @param webhookTimeout how long one webhook POST may take, connection included
 * @param webhookAttempts how many times a notification is POSTed before it is given up (and the failure shown)
 * @param webhookBackoff the wait before the second attempt; it doubles for each one after
 */
@ConfigurationProperties("agentbus.notifications")
record NotificationSettings(
        @Bindable(defaultValue = "500ms") Duration pollInterval,
        @Bindable(defaultValue = "5s") Duration webhookTimeout,
        @Bindable(defaultValue = "5") int webhookAttempts,
        @Bindable(defaultValue = "2s") Duration webhookBackoff) {

    NotificationSettings {
        for (var d : new Object[][] {{"poll-interval", pollInterval}, {"webhook-timeout", webhookTimeout},
                {"webhook-backoff", webhookBackoff}}) {
            Duration value = (Duration) d[1];
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("agentbus.notifications." + d[0] + " must be positive, not "
                        + value);
            }
        }
        if (webhookAttempts < 1) {
            throw new IllegalArgumentException("agentbus.notifications.webhook-attempts must be at least 1, not "
                    + webhookAttempts);
        }
    }
}
