package dev.agentbus.gateway.websocket;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Limits of the WebSocket API: {@code agentbus.gateway.websocket.*} (environment:
 * {@code AGENTBUS_GATEWAY_WEBSOCKET_MAX_TEXT_BYTES}). Checked when the gateway starts; see docs/configuration.md.
 * Binary messages (uploads) are limited by {@code agentbus.gateway.files.max-bytes}, as uploads over HTTP are.
 *
 * @param maxTextBytes the largest text message, fragments joined: a command with its arguments, a chat message, or
 *                     an upload sent as base64 (4/3 of the file's size); at most {@link AgentSocket#FRAME_CAP}
 */
@ConfigurationProperties("agentbus.gateway.websocket")
record WebSocketSettings(@Bindable(defaultValue = "1048576") long maxTextBytes) {

    WebSocketSettings {
        if (maxTextBytes < 1024 || maxTextBytes > AgentSocket.FRAME_CAP) {
            throw new IllegalArgumentException("agentbus.gateway.websocket.max-text-bytes must be between 1024 and "
                    + AgentSocket.FRAME_CAP + ", not " + maxTextBytes);
        }
    }
}
