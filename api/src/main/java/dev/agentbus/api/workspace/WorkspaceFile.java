package dev.agentbus.api.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code GET .../workspace/file}: a text file of the workspace, whole and exactly as stored (UTF-8). A file that is
 * not UTF-8 text is refused; download its bytes instead.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record WorkspaceFile(String path, String content, long bytes, String sha256, String callId) {
}
