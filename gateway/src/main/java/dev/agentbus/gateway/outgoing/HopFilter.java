package dev.agentbus.gateway.outgoing;

import dev.agentbus.api.ApiError;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.gateway.errors.ErrorBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;

/**
 * Refuses a request that an Agentbus service sent ({@link OutgoingPolicy#HOP_HEADER}): one that came back to the
 * gateway, because a user named the gateway itself as their model server, MCP server or webhook, by whatever address,
 * proxy or DNS name got past the outgoing policy. Answered 508 (loop detected) before authentication, so such a
 * request costs nothing and starts nothing: one message once started hundreds of sessions this way.
 */
@ServerFilter("/**")
class HopFilter implements Ordered {
    @RequestFilter
    @Nullable
    public HttpResponse<ApiError> refuseReturningRequests(HttpRequest<?> request) {
        if (!request.getHeaders().contains(OutgoingPolicy.HOP_HEADER)) {
            return null;
        }
        return HttpResponse.<ApiError>status(HttpStatus.LOOP_DETECTED).body(ErrorBodies.of(HttpStatus.LOOP_DETECTED,
                "this request came from an Agentbus service (it carries " + OutgoingPolicy.HOP_HEADER + "): the "
                        + "gateway cannot be its own model server, MCP server or webhook"));
    }

    @Override
    public int getOrder() {
        return ServerFilterPhase.FIRST.before();
    }
}
