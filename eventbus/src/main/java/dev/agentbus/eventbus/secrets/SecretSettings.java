package dev.agentbus.eventbus.secrets;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Where the installation's secret key comes from ({@link SecretBox}): {@code agentbus.secret-key}
 * ({@code AGENTBUS_SECRET_KEY}, 32 bytes as base64), else the file {@code <data dir>/secret-key}, made on first use.
 * Every service that seals or opens a secret must see the same key: in one JVM or on one machine the file does it;
 * across machines set the variable everywhere. See docs/configuration.md.
 */
@ConfigurationProperties("agentbus")
public record SecretSettings(
        @Bindable(defaultValue = "") String secretKey,
        @Bindable(defaultValue = "") String dataDir) {

    public SecretSettings {
        secretKey = secretKey == null ? "" : secretKey.strip();
        dataDir = dataDir == null ? "" : dataDir;
    }

    /** Never prints the key: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "SecretSettings[secretKey=" + (secretKey.isBlank() ? "<file>" : "<set>") + ", dataDir=" + dataDir + "]";
    }
}
