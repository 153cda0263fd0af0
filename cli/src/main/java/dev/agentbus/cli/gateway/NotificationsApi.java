package dev.agentbus.cli.gateway;

import dev.agentbus.api.notifying.NotificationList;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.read;

/** The caller's notifications from all their sessions (/api/v1/me/notifications), which chat shows and marks read. */
public final class NotificationsApi {
    private final GatewayHttp http;

    NotificationsApi(GatewayHttp http) {
        this.http = http;
    }

    /** GET /api/v1/me/notifications: the caller's notifications, unread first, newest first; 503 without a database. */
    public NotificationList list(int limit) {
        return read(http.send(http.getJson("/api/v1/me/notifications?limit=" + limit), null), NotificationList.class);
    }

    /** POST /api/v1/me/notifications/read: marks the caller's notifications up to this id read; returns how many are unread. */
    public long markRead(long upTo) {
        return GatewayHttp.json(http.send(http.post("/api/v1/me/notifications/read",
                JSON.createObjectNode().put("upTo", upTo)), null)).path("unread").asLong();
    }
}
