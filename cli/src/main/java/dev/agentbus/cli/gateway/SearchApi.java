package dev.agentbus.cli.gateway;

import dev.agentbus.api.SearchResults;
import dev.agentbus.api.accounts.ModelList;

import static dev.agentbus.cli.gateway.GatewayHttp.read;

/**
 * Read-only look-ups across the caller's account rather than one session: their messages ({@code agentbus search})
 * and the models their model server offers ({@code agentbus models}).
 */
public final class SearchApi {
    private final GatewayHttp http;

    SearchApi(GatewayHttp http) {
        this.http = http;
    }

    /**
     * GET /api/v1/search: the caller's messages matching {@code query}; {@code mode} null lets the gateway choose
     * (hybrid when it has an embedding model, else text).
     */
    public SearchResults messages(String query, String mode, int limit) {
        String path = "/api/v1/search?q=" + GatewayHttp.query(query) + "&limit=" + limit
                + (mode == null ? "" : "&mode=" + GatewayHttp.query(mode));
        return read(http.send(http.getJson(path), null), SearchResults.class);
    }

    /** GET /api/v1/models: the models the caller's model server (their own, else the team's) lists. */
    public ModelList models() {
        return read(http.send(http.getJson("/api/v1/models"), null), ModelList.class);
    }
}
