package dev.agentbus.gateway.health;

import dev.agentbus.eventbus.KafkaHealth;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /health}: 200 when Kafka answers, 503 with the reason when it does not. No token needed. */
@Controller("/health")
@ExecuteOn(TaskExecutors.BLOCKING)
public class HealthController {
    private final KafkaHealth kafka;

    public HealthController(KafkaHealth kafka) {
        this.kafka = kafka;
    }

    @Get
    public HttpResponse<Map<String, String>> health() {
        String problem = kafka.problem();
        Map<String, String> body = new LinkedHashMap<>();
        body.put("status", problem == null ? "UP" : "DOWN");
        body.put("kafka", problem == null ? "reachable" : "unreachable: " + problem);
        return HttpResponse.status(problem == null ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }
}
