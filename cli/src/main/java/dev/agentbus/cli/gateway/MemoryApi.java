package dev.agentbus.cli.gateway;

import dev.agentbus.api.Memory;

import static dev.agentbus.cli.gateway.GatewayHttp.JSON;
import static dev.agentbus.cli.gateway.GatewayHttp.read;

/** The caller's memory document (/api/v1/memory), which every new turn of theirs is given: read, replace, empty. */
public final class MemoryApi {
    private final GatewayHttp http;

    MemoryApi(GatewayHttp http) {
        this.http = http;
    }

    /** GET /api/v1/memory: the caller's memory document. */
    public Memory get() {
        return read(http.send(http.getJson("/api/v1/memory"), null), Memory.class);
    }

    /** PUT /api/v1/memory: replaces the memory document; answers the new document once it is applied. */
    public Memory set(String content) {
        return read(http.send(http.put("/api/v1/memory", JSON.createObjectNode().put("content", content)), null),
                Memory.class);
    }

    /** DELETE /api/v1/memory: empties the memory document; answers the new, empty document. */
    public Memory reset() {
        return read(http.send(http.request("/api/v1/memory").header("Accept", "application/json").DELETE().build(),
                null), Memory.class);
    }
}
