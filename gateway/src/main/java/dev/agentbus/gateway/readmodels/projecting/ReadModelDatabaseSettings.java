package dev.agentbus.gateway.readmodels.projecting;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * The PostgreSQL database of the read models: {@code agentbus.db.*} (environment: {@code AGENTBUS_DB_URL},
 * {@code AGENTBUS_DB_USER}, {@code AGENTBUS_DB_PASSWORD}). A blank URL means none: the read-model endpoints answer
 * 503 and the rest of the gateway works. Checked when the gateway starts; see docs/configuration.md.
 */
@ConfigurationProperties("agentbus.db")
record ReadModelDatabaseSettings(
        @Bindable(defaultValue = "") String url,
        @Bindable(defaultValue = "") String user,
        @Bindable(defaultValue = "") String password) {

    ReadModelDatabaseSettings {
        url = url == null ? "" : url;
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        if (!url.isBlank() && !url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("agentbus.db.url must be a PostgreSQL JDBC URL such as "
                    + "jdbc:postgresql://localhost:5432/agentbus, not '" + url + "'");
        }
    }

    boolean configured() {
        return !url.isBlank();
    }

    /** Never prints the password: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "ReadModelDatabaseSettings[url=" + url + ", user=" + user + ", password="
                + (password.isEmpty() ? "<none>" : "<set>") + "]";
    }
}
