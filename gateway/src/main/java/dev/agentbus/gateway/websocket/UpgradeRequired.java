package dev.agentbus.gateway.websocket;

import dev.agentbus.api.ApiError;
import dev.agentbus.gateway.errors.ErrorBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * A plain HTTP request to {@code /ws} (no {@code Upgrade: websocket}) gets 426 and says what to do, instead of
 * Micronaut's "required argument not specified" from trying to run the socket as a controller. It answers the same
 * whatever the session, so it tells nothing about anyone's sessions.
 */
@ServerFilter("/ws")
class UpgradeRequired {

    @RequestFilter
    @Nullable
    public HttpResponse<ApiError> requireUpgrade(HttpRequest<?> request) {
        String upgrade = request.getHeaders().get("Upgrade");
        if (upgrade != null && upgrade.equalsIgnoreCase("websocket")) {
            return null;
        }
        return HttpResponse.<ApiError>status(HttpStatus.UPGRADE_REQUIRED).header("Upgrade", "websocket")
                .body(ErrorBodies.of(HttpStatus.UPGRADE_REQUIRED, "/ws is a WebSocket: connect with a WebSocket "
                        + "client (Upgrade: websocket); docs/websocket.md"));
    }
}
