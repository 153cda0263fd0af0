package dev.agentbus.gateway.accounts.auditing;

import dev.agentbus.api.ApiJson;
import dev.agentbus.gateway.errors.ApiException;
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

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The account audit, newest first: {@code GET /api/v1/audit/accounts} for the records about or by the caller,
 * {@code GET /api/v1/admin/account-events} for everyone's (admins only: the filter checks).
 */
@Controller
@ExecuteOn(TaskExecutors.BLOCKING)
class AccountAuditController {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final ReadModelDatabase database;

    AccountAuditController(ReadModelDatabase database) {
        this.database = database;
    }

    @Get("/api/v1/audit/accounts")
    @Produces(MediaType.APPLICATION_JSON)
    public String mine(@Nullable @QueryValue Integer limit, HttpRequest<?> request) {
        String user = userOf(request);
        return ApiJson.write(database.query(c -> AccountEvents.newest(c, user, limit(limit))));
    }

    @Get("/api/v1/admin/account-events")
    @Produces(MediaType.APPLICATION_JSON)
    public String everyone(@Nullable @QueryValue Integer limit) {
        return ApiJson.write(database.query(c -> AccountEvents.newest(c, null, limit(limit))));
    }

    private static int limit(Integer limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badRequest("limit must be 1 to " + MAX_LIMIT);
        }
        return limit;
    }
}
