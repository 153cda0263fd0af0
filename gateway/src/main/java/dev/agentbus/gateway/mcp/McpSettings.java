package dev.agentbus.gateway.mcp;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * How long the MCP server's {@code run_task} and {@code await_task} wait for a turn: {@code agentbus.gateway.mcp.*}
 * (environment: {@code AGENTBUS_GATEWAY_MCP_WAIT_SECONDS}, {@code AGENTBUS_GATEWAY_MCP_MAX_WAIT_SECONDS}). Checked
 * when the gateway starts; see docs/configuration.md.
 *
 * @param waitSeconds    how long a call waits when it names no {@code timeout_seconds}. Below a minute by default,
 *                       because MCP clients built on the TypeScript SDK (Claude Desktop among them) give up on a
 *                       request after 60 s; a turn that takes longer goes on, and {@code await_task} picks it up
 * @param maxWaitSeconds the longest {@code timeout_seconds} a call may ask for; longer ones are cut to it, so one
 *                       request cannot hold a gateway thread for ever
 */
@ConfigurationProperties("agentbus.gateway.mcp")
record McpSettings(
        @Bindable(defaultValue = "50") int waitSeconds,
        @Bindable(defaultValue = "600") int maxWaitSeconds) {

    McpSettings {
        if (waitSeconds < 1) {
            throw new IllegalArgumentException("agentbus.gateway.mcp.wait-seconds must be at least 1, not "
                    + waitSeconds);
        }
        if (maxWaitSeconds < waitSeconds) {
            throw new IllegalArgumentException("agentbus.gateway.mcp.max-wait-seconds (" + maxWaitSeconds
                    + ") must be at least agentbus.gateway.mcp.wait-seconds (" + waitSeconds + ")");
        }
    }

    /** The wait for a call that asked for {@code requested} seconds (null: the default), within the bounds. */
    int waitFor(Integer requested) {
        return requested == null ? waitSeconds : Math.clamp(requested, 1, maxWaitSeconds);
    }
}
