package dev.agentbus.gateway.accounts.modelserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.ModelList;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.Json;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import jakarta.annotation.PreDestroy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * {@code GET /api/v1/models}: what the caller's model server offers, asked live ({@code GET /v1/models} there), so a
 * person can pick a model for a session. The server is the caller's own ({@code PUT /api/v1/me/model}, with their
 * key) or else the installation's ({@code llm.url}). A server that does not answer is a 502 JSON error, one that does
 * not answer in time a 504; the team's server's address is never shown. The caller's own server is their choice, so
 * it goes through the {@link OutgoingPolicy} before every request (a 400 when refused: the gateway itself, an internal
 * address), and only its status is shown, never its body.
 */
@Controller("/api/v1/models")
@ExecuteOn(TaskExecutors.BLOCKING)
class ModelListController {
    private final UserModels models;
    private final SecretBox secrets;
    private final TeamModelServer team;
    private final HttpClient http;
    private final ModelDeclarations declared;
    private final OutgoingPolicy outgoing;
    /** Ollama is asked model by model; a longer list shows the rest without capabilities. */
    private static final int MAX_OLLAMA_ASKS = 20;
    private static final Duration CAPABILITY_WAIT = Duration.ofSeconds(3);

    ModelListController(UserModels models, SecretBox secrets, TeamModelServer team, ModelDeclarations declared,
                        OutgoingSettings outgoing) {
        this.declared = declared;
        this.outgoing = outgoing.policy();
        this.models = models;
        this.secrets = secrets;
        this.team = team;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(team.listWait())
                .build();
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(HttpRequest<?> request) throws InterruptedException {
        String user = userOf(request);
        Optional<UserModelSettings> own = models.of(user);
        if (own.isPresent()) {
            String key = "";
            if (own.get().hasApiKey()) {
                try {
                    key = secrets.open(own.get().sealedApiKey(), user);
                } catch (IllegalArgumentException e) {
                    throw new ApiException(HttpStatus.BAD_GATEWAY, "your model server's API key cannot be used ("
                            + e.getMessage() + "); set it again with PUT /api/v1/me/model");
                }
            }
            return ApiJson.write(new ModelList("own", ask(own.get().baseUrl(), key,
                    "your model server at " + own.get().baseUrl(), outgoing)));
        }
        return ApiJson.write(new ModelList("team", ask(team.url(), team.apiKey(), "the team's model server", null)));
    }

    /** @param policy the rule for a server the caller chose; null for the team's, which the operator configured */
    private List<ModelList.Model> ask(String baseUrl, String apiKey, String server, OutgoingPolicy policy)
            throws InterruptedException {
        Duration wait = team.listWait();
        if (policy != null) {
            try {
                policy.check(baseUrl + "/models");
            } catch (OutgoingRefused e) {
                if (e.unresolved()) {
                    throw new ApiException(HttpStatus.BAD_GATEWAY, server + " did not answer GET /models: "
                            + e.getMessage());
                }
                throw ApiException.badRequest(server + " is refused: " + e.getMessage()
                        + "; change it with PUT /api/v1/me/model");
            }
        }
        java.net.http.HttpRequest.Builder get = java.net.http.HttpRequest.newBuilder(URI.create(baseUrl + "/models"))
                .timeout(wait).header("Accept", "application/json")
                .header(OutgoingPolicy.HOP_HEADER, OutgoingPolicy.HOP_VALUE).GET();
        if (!apiKey.isBlank()) {
            get.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(get.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new ApiException(HttpStatus.GATEWAY_TIMEOUT, server + " did not list its models within "
                    + wait.toSeconds() + " s");
        } catch (IOException e) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, server + " did not answer GET /models: "
                    + (e instanceof java.net.ConnectException ? "connection refused"
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
        if (answer.statusCode() / 100 != 2) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, server + " answered GET /models with "
                    + OutgoingPolicy.statusReason(answer.statusCode()));
        }
        JsonNode data;
        try {
            data = Json.mapper().readTree(answer.body()).path("data");
        } catch (IOException e) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, server + " answered GET /models with something that is "
                    + "not JSON");
        }
        if (!data.isArray()) {
            throw new ApiException(HttpStatus.BAD_GATEWAY, server + " answered GET /models without a data list");
        }
        List<ModelList.Model> found = new ArrayList<>();
        for (JsonNode m : data) {
            String id = m.path("id").asText("");
            if (!id.isBlank()) {
                found.add(new ModelList.Model(id, m.hasNonNull("owned_by") ? m.get("owned_by").asText() : null,
                        window(m)));
            }
        }
        return withCapabilities(found, baseUrl, apiKey, policy);
    }

    /**
     * Each model with what it can do, where the server says it (LM Studio's {@code /api/v0/models}, else Ollama's
     * {@code /api/show}, the same places the orchestrator asks before it sends images), and vision where the
     * installation declares it. A server that says nothing, or not in time, leaves them absent: the list is still
     * worth showing.
     */
    private List<ModelList.Model> withCapabilities(List<ModelList.Model> listed, String baseUrl, String apiKey,
                                                   OutgoingPolicy policy) throws InterruptedException {
        String root = baseUrl.endsWith("/v1") ? baseUrl.substring(0, baseUrl.length() - 3) : baseUrl;
        JsonNode lmStudio = askJson(root + "/api/v0/models", null, apiKey, policy);
        List<ModelList.Model> out = new ArrayList<>();
        int ollamaAsks = 0;
        for (ModelList.Model m : listed) {
            ModelCapabilityText told = null;
            if (lmStudio != null && lmStudio.path("data").isArray()) {
                for (JsonNode entry : lmStudio.get("data")) {
                    if (entry.path("id").asText("").equals(m.id())) {
                        told = ModelCapabilityText.fromLmStudio(entry);
                    }
                }
            } else if (ollamaAsks++ < MAX_OLLAMA_ASKS) {
                told = ModelCapabilityText.fromOllama(askJson(root + "/api/show",
                        Json.mapper().createObjectNode().put("model", m.id()).toString(), apiKey, policy));
            }
            Boolean vision = told != null && told.vision() != null ? told.vision() : declared.vision(m.id());
            String from = told != null && told.vision() != null ? told.source()
                    : vision != null ? "agentbus.models" : told != null ? told.source() : null;
            out.add(new ModelList.Model(m.id(), m.ownedBy(),
                    m.contextWindow() != null ? m.contextWindow() : told == null ? null : told.contextWindow(),
                    vision, told == null ? null : told.tools(), told == null ? null : told.thinking(), from));
        }
        return out;
    }

    /** A JSON answer of a route some servers have: null for anything else (404, not JSON, no answer in time). */
    private JsonNode askJson(String url, String postBody, String apiKey, OutgoingPolicy policy)
            throws InterruptedException {
        if (policy != null && !policy.allows(url)) {
            return null;
        }
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(url))
                .timeout(CAPABILITY_WAIT).header("Accept", "application/json")
                .header(OutgoingPolicy.HOP_HEADER, OutgoingPolicy.HOP_VALUE);
        if (postBody == null) {
            b.GET();
        } else {
            b.header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(postBody));
        }
        if (!apiKey.isBlank()) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        try {
            HttpResponse<String> answer = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() / 100 == 2 ? Json.mapper().readTree(answer.body()) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The context window where the list says it; the field's name differs between servers. */
    private static Long window(JsonNode model) {
        for (String field : List.of("max_model_len", "context_length", "max_context_length")) {
            if (model.path(field).canConvertToLong() && model.path(field).asLong() > 0) {
                return model.path(field).asLong();
            }
        }
        return null;
    }

    @PreDestroy
    void close() {
        http.close();
    }
}
