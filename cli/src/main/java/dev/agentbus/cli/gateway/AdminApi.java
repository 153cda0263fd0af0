package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.json;

/**
 * The operator's routes (/api/v1/admin, {@code agentbus admin}): rebuilding the read models and users' insights.
 * Their answers are progress reports with no api record, so they come back as JSON trees.
 */
public final class AdminApi {
    private final GatewayHttp http;

    AdminApi(GatewayHttp http) {
        this.http = http;
    }

    /** POST /api/v1/admin/rebuild-projections: empties the read models and starts a run from offset 0 (202). */
    public JsonNode rebuildProjections() {
        return json(http.send(http.post("/api/v1/admin/rebuild-projections", null), null));
    }

    /** GET /api/v1/admin/rebuild-projections: the latest projection run and how far it is. */
    public JsonNode projectionStatus() {
        return json(http.send(http.getJson("/api/v1/admin/rebuild-projections"), null));
    }

    /** POST /api/v1/admin/rebuild-memory: asks for a rebuild of one user's insights, or every user's (null). */
    public JsonNode rebuildMemory(String user) {
        ObjectNode body = JSON.createObjectNode();
        if (user != null) {
            body.put("user", user);
        }
        return json(http.send(http.post("/api/v1/admin/rebuild-memory", body), null));
    }

    /** GET /api/v1/admin/rebuild-memory/{rebuildId}: the users whose insights the rebuild replaced so far. */
    public JsonNode memoryRebuildStatus(String rebuildId) {
        return json(http.send(http.getJson("/api/v1/admin/rebuild-memory/" + rebuildId), null));
    }
}
