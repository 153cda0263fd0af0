package dev.agentbus.gateway.accounts.modelserver;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.ModelServer;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.models.SamplingRequest;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static dev.agentbus.gateway.auth.Callers.addressOf;
import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The caller's own model server: {@code PUT /api/v1/me/model} with {@code {"baseUrl","model"?,"apiKey"?,
 * "temperature"?,"topP"?,"maxTokens"?}} (the sampling fields left out: the installation's),
 * {@code GET} (never the key), {@code DELETE} (back to the team's). The key is sealed here, before it leaves the
 * gateway ({@link SecretBox}), and opened only by the orchestrator when it calls the server. {@code apiKey} left out
 * keeps the current key for the same {@code baseUrl} (a new one needs the key again: 400); {@code ""} removes it.
 */
@Controller("/api/v1/me/model")
@ExecuteOn(TaskExecutors.BLOCKING)
class ModelServerController {
    static final int MAX_URL_CHARS = 500;
    static final int MAX_MODEL_CHARS = 200;
    static final int MAX_KEY_CHARS = 1000;

    private final UserModels models;
    private final SecretBox secrets;
    private final ReadModelDatabase database;
    private final Clock clock = Clock.systemUTC();
    private final OutgoingPolicy outgoing;

    ModelServerController(UserModels models, SecretBox secrets, ReadModelDatabase database,
                          OutgoingSettings outgoing) {
        this.outgoing = outgoing.policy();
        this.models = models;
        this.secrets = secrets;
        this.database = database;
    }

    public record ModelServerRequest(@Nullable String baseUrl, @Nullable String model, @Nullable String apiKey,
                                     @Nullable Double temperature, @Nullable Double topP,
                                     @Nullable Integer maxTokens) {
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String get(HttpRequest<?> request) {
        return ApiJson.write(answer(models.of(userOf(request))));
    }

    @Put
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String put(@Body @Nullable ModelServerRequest body, HttpRequest<?> request) throws InterruptedException {
        String user = userOf(request);
        String baseUrl = baseUrl(body == null ? null : body.baseUrl());
        try {
            // Checked again before every call (an address may change); refused here so the user hears it now.
            outgoing.checkToSave(baseUrl);
        } catch (OutgoingRefused e) {
            throw ApiException.badRequest("baseUrl is refused: " + e.getMessage());
        }
        String model = body.model() == null ? "" : body.model().strip();
        if (model.length() > MAX_MODEL_CHARS) {
            throw ApiException.badRequest("model must be at most " + MAX_MODEL_CHARS + " characters");
        }
        if (body.apiKey() != null && body.apiKey().length() > MAX_KEY_CHARS) {
            throw ApiException.badRequest("apiKey must be at most " + MAX_KEY_CHARS + " characters");
        }
        Sampling sampling = SamplingRequest.check(null,
                new SamplingRequest(body.temperature(), body.topP(), body.maxTokens())).sampling();
        Optional<UserModelSettings> current = models.of(user);
        String sealed = body.apiKey() == null ? keptKey(current, baseUrl)
                : body.apiKey().isBlank() ? null : secrets.seal(body.apiKey().strip(), user);
        Instant now = clock.instant();
        UserModelSettings settings = new UserModelSettings(user, baseUrl, model, sealed,
                current.map(UserModelSettings::version).orElse(0L) + 1, now, sampling);
        if (!models.put(settings)) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the change was written but not read back within "
                    + "10 s; it applies when Kafka catches up");
        }
        Map<String, Object> audited = new java.util.LinkedHashMap<>(
                Map.of("baseUrl", baseUrl, "model", model, "hasApiKey", sealed != null));
        if (!sampling.unset()) {
            audited.put("sampling", sampling);
        }
        audit(request, now, audited);
        return ApiJson.write(answer(Optional.of(settings)));
    }

    @Delete
    @Produces(MediaType.APPLICATION_JSON)
    public String delete(HttpRequest<?> request) throws InterruptedException {
        String user = userOf(request);
        if (models.of(user).isPresent()) {
            if (!models.remove(user)) {
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the change was written but not read back "
                        + "within 10 s; it applies when Kafka catches up");
            }
            audit(request, clock.instant(), Map.of("baseUrl", "the team's"));
        }
        return ApiJson.write(answer(Optional.empty()));
    }

    /**
     * The saved key, kept only for the server it was given for: whoever changes {@code baseUrl} (a person, or someone
     * holding their key for a while) must give the key again, or the saved one would be sent to the new address.
     */
    private static String keptKey(Optional<UserModelSettings> current, String baseUrl) {
        String kept = current.map(UserModelSettings::sealedApiKey).orElse(null);
        if (kept != null && !current.get().baseUrl().equals(baseUrl)) {
            throw ApiException.badRequest("apiKey is required when baseUrl changes: the saved key stays with "
                    + current.get().baseUrl() + "; give the key for the new server again, or \"\" for none");
        }
        return kept;
    }

    /** Only http(s) URLs with a host: the orchestrator will POST the user's conversations there. */
    private static String baseUrl(String text) {
        String url = text == null ? "" : text.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        if (url.isEmpty() || url.length() > MAX_URL_CHARS) {
            throw ApiException.badRequest("baseUrl is required: the OpenAI-compatible API root, e.g. "
                    + "https://api.example.com/v1 (at most " + MAX_URL_CHARS + " characters)");
        }
        try {
            URI uri = URI.create(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getUserInfo() != null || uri.getQuery() != null || uri.getFragment() != null) {
                throw new IllegalArgumentException("not a plain http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("baseUrl must be a plain http:// or https:// URL with a host (no user, "
                    + "query or fragment), not '" + url + "'");
        }
        return url;
    }

    /** The change in the account audit, when there is a database; never the key. */
    private void audit(HttpRequest<?> request, Instant now, Map<String, ?> details) {
        if (database.configured()) {
            database.query(c -> {
                AccountEvents.append(c, now, AccountEvents.MODEL_SERVER_CHANGED, userOf(request), userOf(request),
                        addressOf(request), details);
                return null;
            });
        }
    }

    private static ModelServer answer(Optional<UserModelSettings> settings) {
        return settings.map(s -> new ModelServer(true, s.baseUrl(), s.model(), s.hasApiKey(), s.updatedAt(),
                        s.sampling().temperature(), s.sampling().topP(), s.sampling().maxTokens()))
                .orElse(new ModelServer(false, null, null, false, null, null, null, null));
    }
}
