package dev.agentbus.orchestrator.config;

import dev.agentbus.events.session.PermissionMode;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.time.Duration;

/**
 * Which tool calls wait for a person: {@code agentbus.permissions.*} (environment: {@code AGENTBUS_PERMISSIONS_MODE},
 * {@code AGENTBUS_PERMISSIONS_APPROVAL_TIMEOUT}). Checked when the orchestrator starts; see docs/configuration.md.
 *
 * @param mode            the permission mode of a session whose creator asks for none: {@code auto} (no approvals,
 *                        how Agentbus always ran), {@code normal} or {@code manual}
 * @param approvalTimeout how long a pending approval waits for a person before it counts as denied
 */
@ConfigurationProperties("agentbus.permissions")
public record PermissionSettings(
        @Bindable(defaultValue = "auto") String mode,
        @Bindable(defaultValue = "30m") Duration approvalTimeout) {

    public PermissionSettings {
        if (PermissionMode.parse(mode).isEmpty()) {
            throw new IllegalArgumentException("agentbus.permissions.mode must be auto, normal or manual, not '"
                    + mode + "'");
        }
        if (approvalTimeout == null || approvalTimeout.isNegative() || approvalTimeout.isZero()) {
            throw new IllegalArgumentException("agentbus.permissions.approval-timeout must be positive, not "
                    + approvalTimeout);
        }
    }

    public PermissionMode defaultMode() {
        return PermissionMode.parse(mode).orElseThrow();
    }
}
