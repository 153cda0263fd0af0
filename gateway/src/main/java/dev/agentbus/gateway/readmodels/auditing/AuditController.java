package dev.agentbus.gateway.readmodels.auditing;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.readmodels.Params;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The audit log over HTTP: {@code GET /api/v1/audit} (a page as JSON, newest first) and
 * {@code GET /api/v1/audit/export} (everything that matches as JSON Lines, oldest first, streamed). Only the
 * caller's own calls. See docs/read-models.md.
 */
@Controller("/api/v1/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
class AuditController {
    private static final Logger LOG = LoggerFactory.getLogger(AuditController.class);
    public static final String NDJSON = "application/x-ndjson";
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final ReadModelDatabase database;

    public AuditController(ReadModelDatabase database) {
        this.database = database;
    }

    @Get
    @Produces(MediaType.APPLICATION_JSON)
    public String page(@Nullable @QueryValue String sessionId, @Nullable @QueryValue String tool,
                       @Nullable @QueryValue String status, @Nullable @QueryValue String from,
                       @Nullable @QueryValue String to, @Nullable @QueryValue Integer limit,
                       HttpRequest<?> request) throws JsonProcessingException {
        AuditLog.Filter filter = filter(request, sessionId, tool, status, from, to);
        int max = Params.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        List<AuditRecord> records = database.query(db -> AuditLog.newest(db, filter, max));
        return Json.mapper().writeValueAsString(records);
    }

    /**
     * Streams the export: the query runs before the answer starts (so a database problem is still a 503), then a
     * virtual thread writes one JSON object per line into a pipe the server reads from, so an export of any size
     * needs little memory. A client that goes away breaks the pipe, which ends the thread and frees the connection.
     */
    @Get("/export")
    @Produces(NDJSON)
    public HttpResponse<StreamedFile> export(@Nullable @QueryValue String sessionId, @Nullable @QueryValue String tool,
                                             @Nullable @QueryValue String status, @Nullable @QueryValue String from,
                                             @Nullable @QueryValue String to, HttpRequest<?> request)
            throws IOException {
        AuditLog.Filter filter = filter(request, sessionId, tool, status, from, to);
        Connection connection = database.open();
        ResultSet rows;
        try {
            rows = AuditLog.openExport(connection, filter);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL is unavailable: " + e.getMessage());
        }
        PipedInputStream body = new PipedInputStream(64 * 1024);
        PipedOutputStream sink = new PipedOutputStream(body);
        Thread.ofVirtual().name("audit-export").start(() -> {
            try (connection; rows; Writer out = new BufferedWriter(new OutputStreamWriter(sink,
                    StandardCharsets.UTF_8))) {
                AuditLog.writeAll(rows, record -> {
                    out.write(Json.mapper().writeValueAsString(record));
                    out.write('\n');
                });
            } catch (SQLException | IOException | RuntimeException e) {
                LOG.warn("audit export ended early: {}", e.toString());
            }
        });
        return HttpResponse.ok(new StreamedFile(body, MediaType.of(NDJSON)));
    }

    private static AuditLog.Filter filter(HttpRequest<?> request, String sessionId, String tool, String status,
                                          String from, String to) {
        String wanted = Params.oneOf("status", status, AuditStatus.NAMES);
        var first = Params.date("from", from, null);
        var last = Params.date("to", to, null);
        if (first != null && last != null && first.isAfter(last)) {
            throw ApiException.badRequest("from (" + first + ") is after to (" + last + ")");
        }
        return new AuditLog.Filter(userOf(request), blankToNull(sessionId), blankToNull(tool),
                wanted == null ? null : AuditStatus.fromWire(wanted), first, last);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // it is being given up anyway
        }
    }
}
