package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code PUT .../files/{path}}: what was written, as the gateway sent it, and the worker's answer in {@code result}.
 * Every field is always present.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record UploadedFile(String path, long bytes, String sha256, String callId, String result) {
}
