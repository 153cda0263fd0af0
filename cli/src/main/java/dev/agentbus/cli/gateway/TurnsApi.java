package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.sessionPath;

/**
 * What a person says to a session's turns: a message, a cancel, a whisper, a decision on an approval or a plan, a
 * permission mode, a request to compact. Each is an input the session's orchestrator records; the gateway only
 * accepts it (2xx) or says why not (409 while the session cannot take it).
 */
public final class TurnsApi {
    private final GatewayHttp http;

    TurnsApi(GatewayHttp http) {
        this.http = http;
    }

    /** POST /api/v1/sessions/{id}/messages; returns the input id (null if the gateway did not say). */
    public String postMessage(String sessionId, String text) {
        return postMessage(sessionId, text, List.of());
    }

    /** As {@link #postMessage(String, String)}, with the workspace paths of images to show the model. */
    public String postMessage(String sessionId, String text, List<String> images) {
        ObjectNode body = JSON.createObjectNode().put("text", text);
        if (!images.isEmpty()) {
            images.forEach(body.putArray("images")::add);
        }
        return GatewayHttp.inputId(http.send(http.post(sessionPath(sessionId) + "/messages", body), sessionId));
    }

    /** POST /api/v1/sessions/{id}/cancel. */
    public void cancel(String sessionId) {
        http.send(http.post(sessionPath(sessionId) + "/cancel", null), sessionId);
    }

    /** Like {@link #cancel} but bounded in time: used from the Ctrl-C hook, which must not hang the exit. */
    public void cancelQuickly(String sessionId, Duration timeout) {
        HttpRequest request = http.request(sessionPath(sessionId) + "/cancel").timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        http.send(request, sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/whisper: a note for the running turn's next model call. A session with no turn under
     * way answers 409 ({@link GatewayException.Kind#CONFLICT}).
     */
    public void whisper(String sessionId, String text) {
        http.send(http.post(sessionPath(sessionId) + "/whisper", JSON.createObjectNode().put("text", text)), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/approvals/{callId}: {@code decision} is approve, deny or always; {@code note} may be
     * null. A call that is not pending answers 409 ({@link GatewayException.Kind#CONFLICT}).
     */
    public void decideApproval(String sessionId, String callId, String decision, String note) {
        ObjectNode body = JSON.createObjectNode().put("decision", decision);
        if (note != null) {
            body.put("note", note);
        }
        http.send(http.post(sessionPath(sessionId) + "/approvals/" + GatewayHttp.segment(callId), body), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/plan/decision: {@code decision} is approve or reject; {@code note} may be null (on a
     * rejection the model reads it). 409 when no plan waits for approval.
     */
    public void decidePlan(String sessionId, String decision, String note) {
        ObjectNode body = JSON.createObjectNode().put("decision", decision);
        if (note != null) {
            body.put("note", note);
        }
        http.send(http.post(sessionPath(sessionId) + "/plan/decision", body), sessionId);
    }

    /** PUT /api/v1/sessions/{id}/mode: auto, normal or manual. */
    public void setPermissionMode(String sessionId, String mode) {
        http.send(http.put(sessionPath(sessionId) + "/mode", JSON.createObjectNode().put("mode", mode)), sessionId);
    }

    /**
     * POST /api/v1/sessions/{id}/compact: asks for the older conversation to be summarised now; returns the input id
     * (null if the gateway did not say). 409 ({@link GatewayException.Kind#CONFLICT}) while a turn is under way or a
     * summary is being written, with the gateway's reason.
     */
    public String compact(String sessionId) {
        return GatewayHttp.inputId(http.send(http.post(sessionPath(sessionId) + "/compact", null), sessionId));
    }
}
