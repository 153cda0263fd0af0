package dev.agentbus.gateway.readmodels.analytics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.Params;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * {@code GET /api/v1/analytics/tokens?from=&to=}: the caller's token usage by UTC day and model, totals per model
 * and overall. Without dates: the last 30 days up to today.
 */
@Controller("/api/v1/analytics/tokens")
@ExecuteOn(TaskExecutors.BLOCKING)
class TokenAnalyticsController {
    static final int MAX_DAYS = 3660;

    private final ReadModelDatabase database;

    public TokenAnalyticsController(ReadModelDatabase database) {
        this.database = database;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String tokens(@Nullable @QueryValue String from, @Nullable @QueryValue String to, HttpRequest<?> request)
            throws JsonProcessingException {
        LocalDate today = LocalDate.now(Clock.system(ZoneOffset.UTC));
        LocalDate last = Params.date("to", to, today);
        LocalDate first = Params.date("from", from, last.minusDays(29));
        if (first.isAfter(last)) {
            throw ApiException.badRequest("from (" + first + ") is after to (" + last + ")");
        }
        if (ChronoUnit.DAYS.between(first, last) >= MAX_DAYS) {
            throw ApiException.badRequest("the range is longer than " + MAX_DAYS + " days");
        }
        String user = userOf(request);
        List<TokenAnalytics.DayRow> rows = database.query(db -> TokenAnalytics.byDayAndModel(db, user, first, last));

        ObjectNode body = Json.mapper().createObjectNode();
        body.put("from", first.toString());
        body.put("to", last.toString());
        body.set("days", Json.mapper().valueToTree(rows));
        Map<String, long[]> perModel = new TreeMap<>();
        long[] total = new long[4];
        for (TokenAnalytics.DayRow r : rows) {
            long[] m = perModel.computeIfAbsent(r.model(), k -> new long[4]);
            for (long[] sum : List.of(m, total)) {
                sum[0] += r.modelCalls();
                sum[1] += r.promptTokens();
                sum[2] += r.completionTokens();
                sum[3] += r.totalTokens();
            }
        }
        ArrayNode models = body.putArray("models");
        perModel.forEach((model, sum) -> totals(models.addObject().put("model", model), sum));
        totals(body.putObject("total"), total);
        return Json.mapper().writeValueAsString(body);
    }

    private static void totals(ObjectNode node, long[] sum) {
        node.put("modelCalls", sum[0]).put("promptTokens", sum[1]).put("completionTokens", sum[2])
                .put("totalTokens", sum[3]);
    }
}
