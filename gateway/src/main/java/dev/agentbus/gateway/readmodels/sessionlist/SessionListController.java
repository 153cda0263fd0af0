package dev.agentbus.gateway.readmodels.sessionlist;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentbus.events.Json;
import dev.agentbus.events.state.SessionStatus;
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

import java.util.List;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * {@code GET /api/v1/read-models/sessions}: the caller's sessions from PostgreSQL, with paging, a status filter and
 * each session's last message. {@code GET /api/v1/sessions} stays the in-memory view; see docs/read-models.md.
 */
@Controller("/api/v1/read-models/sessions")
@ExecuteOn(TaskExecutors.BLOCKING)
class SessionListController {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final ReadModelDatabase database;

    public SessionListController(ReadModelDatabase database) {
        this.database = database;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String list(@Nullable @QueryValue String status, @Nullable @QueryValue Integer limit,
                       @Nullable @QueryValue Integer offset, HttpRequest<?> request) throws JsonProcessingException {
        String wanted = Params.oneOf("status", status, List.of("IDLE", "RUNNING", "WAITING", "AWAITING_APPROVAL"));
        int pageSize = Params.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        int skip = Params.offset(offset);
        String user = userOf(request);
        List<SessionSummary> page = database.query(db -> SessionList.page(db, user,
                wanted == null ? null : SessionStatus.valueOf(wanted), pageSize, skip));
        return Json.mapper().writeValueAsString(page);
    }
}
