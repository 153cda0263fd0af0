package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpServerConfig;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The sandbox-worker's MCP client settings, {@code agentbus.mcp.*} or {@code AGENTBUS_MCP_*} (docs/configuration.md,
 * "MCP servers"). Checked at start: a team configuration that cannot be read stops the worker with the reason.
 *
 * @param config                the team's {@code mcpServers} configuration: a file path, or the JSON itself
 *                              ({@code AGENTBUS_MCP_CONFIG})
 * @param packageDirs           host directories bound read-only, at the same path, into the sandbox of every
 *                              sandboxed stdio server: where the servers' packages are installed (comma-separated)
 * @param network               whether sandboxed stdio servers get the network (off, like the sandbox's)
 * @param requestTimeoutSeconds how long one MCP request (start, list, call) may take
 */
@ConfigurationProperties("agentbus.mcp")
public record McpSettings(@Bindable(defaultValue = "") String config,
                          @Bindable(defaultValue = "") String packageDirs,
                          @Bindable(defaultValue = "false") boolean network,
                          @Bindable(defaultValue = "60") int requestTimeoutSeconds) {
    public McpSettings {
        if (requestTimeoutSeconds < 1) {
            throw new IllegalArgumentException("agentbus.mcp.request-timeout-seconds must be at least 1, not "
                    + requestTimeoutSeconds);
        }
        // Fails the start with the reason, rather than every session's listing later.
        McpConfig.team(config);
    }

    List<McpServerConfig> teamServers() {
        return McpConfig.team(config);
    }

    List<Path> packagePaths() {
        return packageDirs == null || packageDirs.isBlank() ? List.of()
                : Arrays.stream(packageDirs.split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of)
                .toList();
    }
}
