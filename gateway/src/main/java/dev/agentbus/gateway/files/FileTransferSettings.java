package dev.agentbus.gateway.files;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Limits of uploads and downloads through the gateway: {@code agentbus.gateway.files.*} (environment:
 * {@code AGENTBUS_GATEWAY_FILES_TIMEOUT_SECONDS}, {@code AGENTBUS_GATEWAY_FILES_MAX_BYTES}). Checked when the gateway
 * starts; see docs/configuration.md.
 *
 * @param timeoutSeconds how long a transfer waits for the worker before answering 504
 * @param maxBytes       the largest file; keep it equal to the worker's {@code agentbus.sandbox.transfer-max-bytes}
 */
@ConfigurationProperties("agentbus.gateway.files")
public record FileTransferSettings(
        @Bindable(defaultValue = "30") int timeoutSeconds,
        @Bindable(defaultValue = "524288") long maxBytes) {

    public FileTransferSettings {
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("agentbus.gateway.files.timeout-seconds must be at least 1, not "
                    + timeoutSeconds);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("agentbus.gateway.files.max-bytes must be at least 1, not "
                    + maxBytes);
        }
    }
}
