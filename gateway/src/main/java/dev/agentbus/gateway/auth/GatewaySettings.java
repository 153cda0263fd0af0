package dev.agentbus.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Who may use this gateway and as whom: {@code agentbus.gateway.token}, {@code agentbus.token},
 * {@code agentbus.gateway.user} and {@code agentbus.data-dir} (environment: {@code AGENTBUS_GATEWAY_TOKEN},
 * {@code AGENTBUS_TOKEN}, {@code AGENTBUS_GATEWAY_USER}, {@code AGENTBUS_DATA_DIR}). Checked when the gateway
 * starts; see docs/configuration.md.
 *
 * @param token       the bearer token; wins over {@code sharedToken}
 * @param sharedToken the same under the name the CLI reads too, so one {@code AGENTBUS_TOKEN} serves both
 * @param user        the user every request with the token acts as
 * @param dataDir     where a generated token is kept when neither token is set
 */
@ConfigurationProperties("agentbus.gateway")
public record GatewaySettings(
        @Bindable(defaultValue = "") String token,
        @Property(name = "agentbus.token") @Bindable(defaultValue = "") String sharedToken,
        @Bindable(defaultValue = "local") String user,
        @Property(name = "agentbus.data-dir") @Bindable(defaultValue = "") String dataDir) {

    public GatewaySettings {
        token = token == null ? "" : token;
        sharedToken = sharedToken == null ? "" : sharedToken;
        dataDir = dataDir == null ? "" : dataDir;
        // The user id names a directory of workspaces and a Kafka key: keep it to safe characters.
        if (user == null || !user.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
            throw new IllegalArgumentException("agentbus.gateway.user must be letters, digits, '.', '_' or '-' "
                    + "(at most 128, starting with a letter or digit), not '" + user + "'");
        }
    }

    /** The token configured, if any: blank means "generate one or take the stored one". */
    public String configuredToken() {
        return !token.isBlank() ? token : sharedToken;
    }

    /** Never prints the tokens: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "GatewaySettings[token=" + (token.isBlank() ? "<none>" : "<set>") + ", sharedToken="
                + (sharedToken.isBlank() ? "<none>" : "<set>") + ", user=" + user + ", dataDir=" + dataDir + "]";
    }
}
