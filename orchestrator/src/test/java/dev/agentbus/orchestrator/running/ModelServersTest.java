package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.eventbus.secrets.SecretSettings;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import dev.agentbus.modelclient.ModelSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelServersTest {
    static final SecretBox BOX = SecretBox.load(new SecretSettings(
            java.util.Base64.getEncoder().encodeToString(new byte[32]), ""));
    final Map<String, UserModelSettings> topic = new HashMap<>();
    final ModelServers servers = new ModelServers(ModelSettings.of("http://team.example:1234/v1", "team-model"),
            user -> Optional.ofNullable(topic.get(user)), BOX);

    @AfterEach
    void close() {
        servers.close();
    }

    @Test
    void a_user_without_a_server_of_their_own_gets_the_teams() throws Exception {
        assertThat(servers.forUser("ada")).isSameAs(servers.forUser("bob")).isSameAs(servers.forUser(null));
    }

    @Test
    void a_user_with_their_own_server_gets_a_client_of_their_own_kept_while_the_settings_stay() throws Exception {
        ModelClient teams = servers.forUser("bob");
        topic.put("ada", new UserModelSettings("ada", "https://ada.example/v1", "ada-model",
                BOX.seal("sk-ada", "ada"), 1, Instant.now()));

        ModelClient adas = servers.forUser("ada");

        assertThat(adas).isNotSameAs(teams);
        topic.put("ada", new UserModelSettings("ada", "https://ada.example/v1", "ada-model",
                topic.get("ada").sealedApiKey(), 2, Instant.now()));
        assertThat(servers.forUser("ada")).as("re-saved unchanged: same client").isSameAs(adas);
        topic.put("ada", new UserModelSettings("ada", "https://other.example/v1", "", null, 3, Instant.now()));
        assertThat(servers.forUser("ada")).isNotSameAs(adas).isNotSameAs(teams);
        topic.remove("ada");
        assertThat(servers.forUser("ada")).as("back to the team's").isSameAs(teams);
    }

    @Test
    void a_key_that_does_not_open_fails_the_call_with_what_to_do_and_never_the_key() {
        topic.put("ada", new UserModelSettings("ada", "https://ada.example/v1", "", BOX.seal("sk-ada", "mallory"),
                1, Instant.now()));

        assertThatThrownBy(() -> servers.forUser("ada")).isInstanceOf(ModelCallException.class)
                .hasMessageContaining("PUT /api/v1/me/model").hasMessageNotContaining("sk-ada");
    }

    @Test
    void a_users_defaults_are_their_sampling_over_the_teams_and_their_own_servers_model_never_the_teams() {
        ModelServers team = new ModelServers(ModelSettings.of("http://team.example:1234/v1", "team-model")
                .withTemperature(0.2).withMaxTokens(4096), user -> Optional.ofNullable(topic.get(user)), BOX);
        topic.put("ada", new UserModelSettings("ada", "https://ada.example/v1", "", null, 1, Instant.now(),
                new Sampling(0.9, 0.5, null)));
        try (team) {
            assertThat(team.defaultsFor("bob")).isEqualTo(new ModelChoice("team-model", new Sampling(0.2, null, 4096)));
            assertThat(team.defaultsFor("ada")).as("blank: the first model of ada's server")
                    .isEqualTo(new ModelChoice(null, new Sampling(0.9, 0.5, 4096)));
        }
    }
}
