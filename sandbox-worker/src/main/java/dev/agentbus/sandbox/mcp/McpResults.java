package dev.agentbus.sandbox.mcp;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;
import dev.agentbus.events.Json;
import dev.agentbus.events.mcp.McpServerConfig;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a session is told of an MCP server's work: a tool's result turned into a {@link ToolOutcome} (text, with
 * images, audio and resources named, cut at the output cap), and why a server failed, in words the session may show.
 * Apart from {@link McpSessions}, which runs the servers, because the wording changes for other reasons than the
 * servers' lifecycle.
 */
final class McpResults {
    private McpResults() {
    }

    /** The tool's answer as the session sees it, cut at {@code outputCapBytes}. */
    static ToolOutcome outcome(McpSchema.CallToolResult result, int outputCapBytes) {
        StringBuilder text = new StringBuilder();
        for (McpSchema.Content c : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            switch (c) {
                case McpSchema.TextContent t -> text.append(t.text());
                case McpSchema.ImageContent i -> text.append("[image, ").append(i.mimeType()).append(']');
                case McpSchema.AudioContent a -> text.append("[audio, ").append(a.mimeType()).append(']');
                case McpSchema.EmbeddedResource r -> text.append("[resource ").append(r.resource().uri())
                        .append(']').append(r.resource() instanceof McpSchema.TextResourceContents tr
                                ? "\n" + tr.text() : "");
                case McpSchema.ResourceLink l -> text.append("[resource link ").append(l.uri()).append(']');
                default -> text.append("[").append(c.type()).append(" content]");
            }
        }
        if (text.isEmpty() && result.structuredContent() != null) {
            try {
                text.append(Json.mapper().writeValueAsString(result.structuredContent()));
            } catch (IOException e) {
                text.append(result.structuredContent());
            }
        }
        String all = text.toString();
        boolean truncated = false;
        byte[] bytes = all.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > outputCapBytes) {
            all = new String(bytes, 0, outputCapBytes, StandardCharsets.UTF_8) + "\n[output truncated: "
                    + (bytes.length - outputCapBytes) + " more bytes not shown]";
            truncated = true;
        }
        return Boolean.TRUE.equals(result.isError())
                ? new ToolOutcome(false, "", all.isEmpty() ? "the MCP tool reported an error" : all, null, truncated)
                : new ToolOutcome(true, all, null, null, truncated);
    }

    /**
     * Why {@code server} failed, in words the session may show. An HTTP server a user or a workspace chose may be an
     * internal service whose error text must not reach the session: only a refusal of the outgoing policy, the HTTP
     * status with a fixed reason, or the kind of failure is said.
     */
    static String failure(McpServerConfig server, Throwable e) {
        if (McpLauncher.quotable(server)) {
            return message(e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutgoingRefused refused) {
                return "refused: " + refused.getMessage();
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            Matcher status = STATUS.matcher(String.valueOf(t.getMessage()));
            if (status.find()) {
                return "it answered " + OutgoingPolicy.statusReason(Integer.parseInt(status.group(1)));
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return "it did not answer as an MCP server (" + root.getClass().getSimpleName() + "; its words are not shown)";
    }

    /** Where the MCP client's exceptions name the HTTP status of an answer. */
    private static final Pattern STATUS = Pattern.compile("(?i)status(?: code)?\\W{0,3}(\\d{3})\\b");

    static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return m.length() > 300 ? m.substring(0, 300) + "…" : m;
    }
}
