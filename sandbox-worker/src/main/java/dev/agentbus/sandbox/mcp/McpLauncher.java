package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpServerConfig;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.sandbox.shell.Bubblewrap;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes the transport to one MCP server, deciding where a stdio server runs:
 * <ul>
 *   <li>in a bubblewrap sandbox of its own with the session's view: the workspace at {@code /workspace} (its working
 *       directory), the host's {@code /usr} read-only (so the host's {@code node} or {@code python3}), the
 *       {@link McpSettings#packageDirs} read-only at the same path, no network unless
 *       {@link McpSettings#network}, all capabilities dropped, an empty environment but its own {@code env};</li>
 *   <li>on the worker host itself, only when the team's configuration marks the server {@code trusted}.</li>
 * </ul>
 * A worker without bubblewrap runs no untrusted stdio server (the listing says why). Streamable-HTTP servers are
 * reached by the worker with their configured headers, which never leave it. The worker connects from the host's
 * network, so an HTTP server a user or a workspace names goes through the {@link OutgoingPolicy} before every
 * request (no internal address unless the operator allows it); the team's are the operator's choice. Every request
 * carries the policy's hop marker, and redirects are not followed.
 */
final class McpLauncher {
    /** The uid and gid the server sees inside the sandbox, as the session's commands do. */
    private static final int SANDBOX_UID = 1000;

    private final Optional<Path> bwrap;
    private final List<Path> packageDirs;
    private final boolean network;
    private final Duration timeout;
    private final JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    private final OutgoingPolicy outgoing;

    McpLauncher(String bwrapSetting, List<Path> packageDirs, boolean network, Duration timeout) {
        this(bwrapSetting, packageDirs, network, timeout, OutgoingPolicy.DEFAULT);
    }

    McpLauncher(String bwrapSetting, List<Path> packageDirs, boolean network, Duration timeout,
                OutgoingPolicy outgoing) {
        this.outgoing = outgoing;
        this.bwrap = Bubblewrap.find(bwrapSetting);
        this.packageDirs = List.copyOf(packageDirs);
        this.network = network;
        this.timeout = timeout;
    }

    JacksonMcpJsonMapper json() {
        return json;
    }

    /** The transport to {@code server} for the session whose workspace is {@code workspace}. */
    McpClientTransport transport(McpServerConfig server, Path workspace) {
        if (!server.stdio()) {
            return http(server);
        }
        List<String> command = new ArrayList<>();
        command.add(server.command());
        command.addAll(server.args());
        if (server.trusted()) {
            return new StdioClientTransport(ServerParameters.builder(server.command()).args(server.args())
                    .env(server.env()).build(), json);
        }
        Path bw = bwrap.orElseThrow(() -> new IllegalStateException("stdio MCP servers run in a bubblewrap "
                + "sandbox, and this worker has no bubblewrap (agentbus.sandbox.bwrap); an admin may mark the server "
                + "\"trusted\" in AGENTBUS_MCP_CONFIG to run it on the worker host instead"));
        List<String> argv = Bubblewrap.program(bw, workspace, network, SANDBOX_UID, SANDBOX_UID, packageDirs,
                server.env(), command);
        return new StdioClientTransport(ServerParameters.builder(argv.getFirst()).args(argv.subList(1, argv.size()))
                .build(), json);
    }

    /** Whether a failure of {@code server} may be quoted: not for an HTTP server a user or a workspace chose. */
    static boolean quotable(McpServerConfig server) {
        return server.stdio() || McpServerConfig.TEAM.equals(server.source());
    }

    private McpClientTransport http(McpServerConfig server) {
        URI uri = URI.create(server.url());
        boolean checked = !McpServerConfig.TEAM.equals(server.source());
        if (checked) {
            refuseIfOutside(uri); // at once, so the listing says why; then again before every request below
        }
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        // The headers are set on every request the transport makes; they exist only in this worker's memory.
        HttpRequest.Builder requests = HttpRequest.newBuilder().header(OutgoingPolicy.HOP_HEADER,
                OutgoingPolicy.HOP_VALUE);
        server.headers().forEach(requests::header);
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint).requestBuilder(requests).connectTimeout(timeout).jsonMapper(json)
                .customizeClient(client -> client.followRedirects(HttpClient.Redirect.NEVER));
        if (checked) {
            transport.httpRequestCustomizer((request, method, target, body, context) -> refuseIfOutside(target));
        }
        return transport.build();
    }

    private void refuseIfOutside(URI target) {
        try {
            outgoing.check(target);
        } catch (OutgoingRefused e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
