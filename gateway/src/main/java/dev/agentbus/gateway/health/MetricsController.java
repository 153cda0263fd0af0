package dev.agentbus.gateway.health;

import dev.agentbus.telemetry.metrics.MetricsSetup;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;

/**
 * {@code GET /metrics}: the gateway's metrics in Prometheus's text format, for a scraper. No token, like
 * {@code /health}: it holds counts and durations, no session, user or content (docs/operations.md#telemetry).
 */
@Controller("/metrics")
class MetricsController {
    @Get
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public HttpResponse<String> metrics() {
        return HttpResponse.ok(MetricsSetup.scrape());
    }
}
