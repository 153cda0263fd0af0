package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import dev.agentbus.modelclient.ModelSettings;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which model server a session's calls go to: the user's own ({@code agentbus.user-models}, set with {@code PUT
 * /api/v1/me/model}) when they have one, else the team's ({@code llm.*}). The user's key is opened here, just
 * before use, and never logged. Time-out, retries and streaming stay the team's; the model and sampling a call asks
 * for are decided per call ({@link #defaultsFor} gives the decider the user's and the team's, and the call carries
 * what was decided). One client per distinct server, model and key, kept while it is in use. A user's server is
 * checked against the {@link OutgoingPolicy} at every call, and its error answers are never quoted; the team's is the
 * operator's choice.
 */
final class ModelServers implements AutoCloseable {
    private final ModelClient teams;
    private final ModelSettings defaults;
    private final Function<String, Optional<UserModelSettings>> userSettings;
    private final SecretBox secrets;
    /** A user's server is theirs to choose, so it goes through the installation's outgoing policy. */
    private final OutgoingPolicy policy;
    private final Map<UserModelSettings, ModelClient> clients = new ConcurrentHashMap<>();

    ModelServers(ModelSettings defaults, Function<String, Optional<UserModelSettings>> userSettings,
                 SecretBox secrets) {
        this(defaults, userSettings, secrets, OutgoingPolicy.DEFAULT);
    }

    ModelServers(ModelSettings defaults, Function<String, Optional<UserModelSettings>> userSettings,
                 SecretBox secrets, OutgoingPolicy policy) {
        this.policy = policy;
        this.defaults = defaults;
        this.teams = new ModelClient(defaults);
        this.userSettings = userSettings;
        this.secrets = secrets;
    }

    /**
     * The model and sampling the user's calls get when neither the session nor its preset chooses: the user's settings
     * over the installation's. With a server of their own the model is theirs (blank: that server's first), never the
     * installation's, which names a model of another server.
     */
    ModelChoice defaultsFor(String userId) {
        ModelChoice installation = new ModelChoice(defaults.model(), new Sampling(defaults.temperature(), null,
                defaults.maxTokens() > 0 ? defaults.maxTokens() : null));
        Optional<UserModelSettings> own = userId == null ? Optional.empty() : userSettings.apply(userId);
        if (own.isEmpty()) {
            return installation;
        }
        return new ModelChoice(own.get().model(), own.get().sampling().over(installation.sampling()));
    }

    /** @throws ModelCallException when the user's key cannot be opened: the call fails with a reason they can act on */
    ModelClient forUser(String userId) throws ModelCallException {
        Optional<UserModelSettings> own = userId == null ? Optional.empty() : userSettings.apply(userId);
        if (own.isEmpty()) {
            return teams;
        }
        // Keyed without the version and time, so re-saving the same server keeps its client (and connections).
        UserModelSettings key = new UserModelSettings(userId, own.get().baseUrl(), own.get().model(),
                own.get().sealedApiKey(), 0, null);
        ModelClient existing = clients.get(key);
        if (existing != null) {
            return existing;
        }
        String apiKey;
        try {
            apiKey = own.get().hasApiKey() ? secrets.open(own.get().sealedApiKey(), userId) : "";
        } catch (IllegalArgumentException e) {
            throw new ModelCallException("your model server's API key cannot be used (" + e.getMessage()
                    + "); set it again with PUT /api/v1/me/model", null);
        }
        ModelClient client = new ModelClient(new ModelSettings(own.get().baseUrl(), own.get().model(), apiKey,
                defaults.temperature(), defaults.maxTokens(), defaults.timeout(), defaults.maxRetries(),
                defaults.stream()), policy);
        // Settings the user has left behind keep no client: drop theirs before adding the new one.
        clients.entrySet().removeIf(e -> {
            if (e.getKey().userId().equals(userId)) {
                e.getValue().close();
                return true;
            }
            return false;
        });
        ModelClient raced = clients.putIfAbsent(key, client);
        if (raced != null) {
            client.close();
            return raced;
        }
        return client;
    }

    @Override
    public void close() {
        teams.close();
        clients.values().forEach(ModelClient::close);
        clients.clear();
    }
}
