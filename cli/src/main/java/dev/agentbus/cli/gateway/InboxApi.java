package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.api.inbox.InboxItem;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.read;

/** The caller's inbox (/api/v1/inbox): tasks queued to start in a new session later, as {@code agentbus submit}. */
public final class InboxApi {
    private final GatewayHttp http;

    InboxApi(GatewayHttp http) {
        this.http = http;
    }

    /**
     * POST /api/v1/inbox: queues a task that starts in a new session at {@code at} (an ISO-8601 time with a zone;
     * null: now). Bad input answers 400 ({@link GatewayException}) with the gateway's reason.
     */
    public InboxItem submit(String text, String at, String title) {
        ObjectNode body = JSON.createObjectNode().put("text", text);
        if (at != null) {
            body.put("at", at);
        }
        if (title != null) {
            body.put("title", title);
        }
        return read(http.send(http.post("/api/v1/inbox", body), null), InboxItem.class);
    }

    /** GET /api/v1/inbox: the caller's queued and started tasks, newest first. */
    public List<InboxItem> list() {
        HttpResponse<String> response = http.send(http.getJson("/api/v1/inbox"), null);
        try {
            return JSON.readValue(response.body(), JSON.getTypeFactory().constructCollectionType(List.class,
                    InboxItem.class));
        } catch (IOException e) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, response.statusCode(),
                    "the gateway's inbox is not the expected JSON: " + e.getMessage());
        }
    }

    /** DELETE /api/v1/inbox/{id}: 404 when there is no such task, 409 when it has started. */
    public void cancel(String id) {
        http.send(http.request("/api/v1/inbox/" + GatewayHttp.segment(id)).header("Accept", "application/json")
                .DELETE().build(), null);
    }
}
