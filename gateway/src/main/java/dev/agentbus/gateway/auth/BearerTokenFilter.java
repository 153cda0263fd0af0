package dev.agentbus.gateway.auth;

import dev.agentbus.api.ApiError;
import dev.agentbus.gateway.errors.ErrorBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/** Every {@code /api/} and {@code /v1/} (OpenAI-compatible) request must carry {@code Authorization: Bearer <token>}; anything else gets 401. */
@ServerFilter({"/api/**", "/v1/**"})
public class BearerTokenFilter {
    public static final String USER_ATTRIBUTE = "agentbus.user";

    private final GatewayToken token;

    public BearerTokenFilter(GatewayToken token) {
        this.token = token;
    }

    /** The user the request's token acts as (set by this filter on every /api request). */
    public static String userOf(HttpRequest<?> request) {
        return request.getAttribute(USER_ATTRIBUTE, String.class)
                .orElseThrow(() -> new IllegalStateException("request did not pass the token filter"));
    }

    @RequestFilter
    @Nullable
    public HttpResponse<ApiError> authenticate(HttpRequest<?> request) {
        String header = request.getHeaders().getAuthorization().orElse("");
        String presented = header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7) : null;
        if (!token.matches(presented)) {
            return HttpResponse.<ApiError>status(HttpStatus.UNAUTHORIZED)
                    .header("WWW-Authenticate", "Bearer")
                    .body(ErrorBodies.of(HttpStatus.UNAUTHORIZED, presented == null
                            ? "missing bearer token (Authorization: Bearer <token>)" : "wrong bearer token"));
        }
        request.setAttribute(USER_ATTRIBUTE, token.userId());
        return null;
    }
}
