package dev.agentbus.gateway.health;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.Health;
import dev.agentbus.eventbus.KafkaHealth;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/** {@code GET /health}: 200 when Kafka answers, 503 with the reason when it does not. No token needed. */
@Controller("/health")
@ExecuteOn(TaskExecutors.BLOCKING)
class HealthController {
    private final KafkaHealth kafka;

    public HealthController(KafkaHealth kafka) {
        this.kafka = kafka;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public HttpResponse<String> health() {
        String problem = kafka.problem();
        Health body = problem == null ? new Health("UP", "reachable") : new Health("DOWN", "unreachable: " + problem);
        return HttpResponse.<String>status(problem == null ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(ApiJson.write(body));
    }
}
