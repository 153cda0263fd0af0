package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.CreatedSession;
import dev.agentbus.api.PlanningView;

import java.util.List;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.read;
import static dev.agentbus.cli.gateway.GatewayHttp.sessionPath;

/**
 * Sessions as things: create, list, read, rename, delete, and their log and planning views (/api/v1/sessions).
 * What a person does to a session's running turn is {@link TurnsApi}; moving sessions between gateways is
 * {@link TransferApi}.
 */
public final class SessionsApi {
    private final GatewayHttp http;

    SessionsApi(GatewayHttp http) {
        this.http = http;
    }

    /**
     * POST /api/v1/sessions. {@link CreatedSession#isPending()}: the gateway has the request durably but no
     * orchestrator has recorded session.created yet (it answers 202 instead of 201 after waiting 10 s); until one
     * does, the session is 404.
     */
    public CreatedSession create(String title) {
        return create(title, null, false);
    }

    /** POST /api/v1/sessions; {@code planFirst}: plan-first mode (tools wait for a plan the user approved). */
    public CreatedSession create(String title, boolean planFirst) {
        return create(title, null, planFirst);
    }

    /**
     * POST /api/v1/sessions with a permission mode ({@code auto}, {@code normal}, {@code manual}; null: the default)
     * and, when {@code planFirst}, in plan-first mode.
     */
    public CreatedSession create(String title, String mode, boolean planFirst) {
        return create(title, mode, planFirst, null);
    }

    /** As {@link #create(String, String, boolean)}, with the session's own model (null: the default). */
    public CreatedSession create(String title, String mode, boolean planFirst, String model) {
        ObjectNode body = JSON.createObjectNode().put("title", title);
        if (model != null) {
            body.put("model", model);
        }
        if (mode != null) {
            body.put("mode", mode);
        }
        if (planFirst) {
            body.put("planFirst", true);
        }
        CreatedSession answer = read(http.send(http.post("/api/v1/sessions", body), null), CreatedSession.class);
        if (answer.id() == null || answer.id().isBlank()) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 0,
                    "the gateway created a session but did not say its id");
        }
        return answer;
    }

    /** GET /api/v1/sessions, the raw JSON (a list of {@code SessionListEntry}). */
    public String list() {
        return http.send(http.request("/api/v1/sessions").GET().build(), null).body();
    }

    /** GET /api/v1/sessions/{id}: the session's {@code SessionDetails}, raw JSON. */
    public String details(String sessionId) {
        return http.send(http.request(sessionPath(sessionId)).GET().build(), sessionId).body();
    }

    /** GET /api/v1/sessions/{id}/planning: the session's plan, todos and task state, and whether it is plan-first. */
    public PlanningView planning(String sessionId) {
        return read(http.send(http.getJson(sessionPath(sessionId) + "/planning"), sessionId), PlanningView.class);
    }

    /** GET /api/v1/sessions/{id}/log: one event envelope JSON per line, blank lines dropped. */
    public List<String> log(String sessionId) {
        return GatewayHttp.lines(http.send(http.request(sessionPath(sessionId) + "/log")
                .header("Accept", "application/x-ndjson").GET().build(), sessionId).body());
    }

    /** PUT /api/v1/sessions/{id}/title. */
    public void rename(String sessionId, String title) {
        http.send(http.put(sessionPath(sessionId) + "/title", JSON.createObjectNode().put("title", title)), sessionId);
    }

    /** DELETE /api/v1/sessions/{id}: only the owner may; a running turn is cancelled first. */
    public void delete(String sessionId) {
        http.send(http.request(sessionPath(sessionId)).DELETE().build(), sessionId);
    }
}
