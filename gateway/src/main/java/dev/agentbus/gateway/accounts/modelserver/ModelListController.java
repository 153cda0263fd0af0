package dev.agentbus.gateway.accounts.modelserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.api.ApiJson;
import dev.agentbus.api.accounts.ModelList;
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
 * not answer in time a 504; the team's server's address is never shown.
 */
@Controller("/api/v1/models")
@ExecuteOn(TaskExecutors.BLOCKING)
class ModelListController {
    private final UserModels models;
    private final SecretBox secrets;
    private final TeamModelServer team;
    private final HttpClient http;

    ModelListController(UserModels models, SecretBox secrets, TeamModelServer team) {
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
                    "your model server at " + own.get().baseUrl())));
        }
        return ApiJson.write(new ModelList("team", ask(team.url(), team.apiKey(), "the team's model server")));
    }

    private List<ModelList.Model> ask(String baseUrl, String apiKey, String server) throws InterruptedException {
        Duration wait = team.listWait();
        java.net.http.HttpRequest.Builder get = java.net.http.HttpRequest.newBuilder(URI.create(baseUrl + "/models"))
                .timeout(wait).header("Accept", "application/json").GET();
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
            throw new ApiException(HttpStatus.BAD_GATEWAY, server + " answered GET /models with HTTP "
                    + answer.statusCode());
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
        return found;
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
