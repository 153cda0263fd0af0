package dev.agentbus.api.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code PUT} and {@code DELETE .../workspace/file}: what the worker did, in its words ({@code result}, e.g.
 * {@code created notes.txt (3 bytes, 1 line)}), the unified diff of a text file it changed, and the workspace
 * checkpoint taken after the change. {@code diff} and {@code checkpoint} are absent when there is none.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkspaceChange(String path, String callId, String result, String diff, String checkpoint) {
}
