package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.ForkedSession;
import dev.agentbus.api.Rewound;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.read;
import static dev.agentbus.cli.gateway.GatewayHttp.sessionPath;

/**
 * Sessions from and to other places and times (docs/replay-and-fork.md): export a log, import one, fork at a seq,
 * rewind the workspace. These answers may come back before the work is done (202), hence {@link Accepted}.
 */
public final class TransferApi {
    private final GatewayHttp http;

    TransferApi(GatewayHttp http) {
        this.http = http;
    }

    /**
     * An answer that creates or changes something, with whether the gateway finished it ({@code 201}/{@code 200})
     * or only has it durably and is still waiting ({@code 202}, {@code "status":"pending"}).
     */
    public record Accepted<T>(T body, boolean pending) {
    }

    /** GET /api/v1/sessions/{id}/export: the log as JSON Lines, exactly as the gateway sent it. */
    public String exportLog(String sessionId) {
        return http.send(http.request(sessionPath(sessionId) + "/export").header("Accept", "application/x-ndjson")
                .GET().build(), sessionId).body();
    }

    /** POST /api/v1/sessions/import with a JSON Lines body: a new session from an exported log. */
    public Accepted<ForkedSession> importLog(String jsonl, String title) {
        String query = title == null ? "" : "?title=" + GatewayHttp.query(title);
        HttpRequest request = http.request("/api/v1/sessions/import" + query).header("Accept", "application/json")
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(jsonl, StandardCharsets.UTF_8)).build();
        return accepted(http.send(request, null), ForkedSession.class, ForkedSession::isPending);
    }

    /** POST /api/v1/sessions/{id}/fork: a new session from the state of this one at atSeq. */
    public Accepted<ForkedSession> fork(String sessionId, long atSeq, String title) {
        ObjectNode body = JSON.createObjectNode().put("atSeq", atSeq);
        if (title != null) {
            body.put("title", title);
        }
        return accepted(http.send(http.post(sessionPath(sessionId) + "/fork", body), sessionId), ForkedSession.class,
                ForkedSession::isPending);
    }

    /** POST /api/v1/sessions/{id}/rewind: restores the workspace to a checkpoint; waits for the result. */
    public Accepted<Rewound> rewind(String sessionId, String checkpoint) {
        ObjectNode body = JSON.createObjectNode().put("checkpoint", checkpoint);
        HttpRequest request = http.request(sessionPath(sessionId) + "/rewind", Duration.ofSeconds(90))
                .header("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        return accepted(http.send(request, sessionId), Rewound.class, Rewound::isPending);
    }

    private static <T> Accepted<T> accepted(HttpResponse<String> response, Class<T> type, Predicate<T> saysPending) {
        T body = read(response, type);
        return new Accepted<>(body, response.statusCode() == 202 || saysPending.test(body));
    }
}
