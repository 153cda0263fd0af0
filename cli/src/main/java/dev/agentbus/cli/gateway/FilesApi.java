package dev.agentbus.cli.gateway;

import java.net.http.HttpRequest;

import static dev.agentbus.cli.gateway.GatewayHttp.sessionPath;

/**
 * A session's workspace files (/api/v1/sessions/{id}/files): the CLI only writes them, to put a local image where
 * the model can be shown it. Apart from the JSON routes because its body is raw bytes and its path is a file path.
 */
public final class FilesApi {
    private final GatewayHttp http;

    FilesApi(GatewayHttp http) {
        this.http = http;
    }

    /** PUT /api/v1/sessions/{id}/files/{path}: writes {@code content} to {@code path} in the session's workspace. */
    public void upload(String sessionId, String path, byte[] content) {
        StringBuilder encoded = new StringBuilder();
        for (String part : path.split("/")) {
            encoded.append('/').append(GatewayHttp.segment(part));
        }
        http.send(http.request(sessionPath(sessionId) + "/files" + encoded)
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)).build(), sessionId);
    }
}
