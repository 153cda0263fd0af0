package dev.agentbus.gateway.mcp;

import dev.agentbus.api.ApiError;
import dev.agentbus.gateway.errors.ErrorBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import static dev.agentbus.gateway.auth.Callers.userOf;

/**
 * The MCP server's endpoint, {@code /mcp}, for MCP clients (Claude Desktop, IDEs, other agents) with a user's API key:
 * MCP's streamable HTTP transport, stateless ({@link StatelessHttpTransport}). The authentication filter has proved
 * the caller before a message gets here: a missing or bad key is 401, as on every other route.
 */
@Controller("/mcp")
@ExecuteOn(TaskExecutors.BLOCKING)
class McpController {
    private final AgentMcpServer server;

    McpController(AgentMcpServer server) {
        this.server = server;
    }

    /** One JSON-RPC message; its answer as JSON (clients also accept an event stream, which this server never opens). */
    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    HttpResponse<String> message(@Body @Nullable String body, HttpRequest<?> request) {
        StatelessHttpTransport.Answer answer = server.transport().handle(userOf(request), body);
        if (answer.body() == null) {
            return HttpResponse.status(HttpStatus.valueOf(answer.status()));
        }
        return HttpResponse.<String>status(HttpStatus.valueOf(answer.status())).body(answer.body())
                .contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    /**
     * A client's GET asks for a stream of messages the server starts; a stateless server has none to send, and MCP
     * says to answer 405 then (the SDK's client goes on with plain requests).
     */
    @Get(produces = {MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_JSON})
    HttpResponse<ApiError> stream() {
        return HttpResponse.<ApiError>status(HttpStatus.METHOD_NOT_ALLOWED).header("Allow", "POST")
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(ErrorBodies.of(HttpStatus.METHOD_NOT_ALLOWED, "this MCP server is stateless: it opens no "
                        + "event stream; POST each JSON-RPC message to /mcp"));
    }
}
