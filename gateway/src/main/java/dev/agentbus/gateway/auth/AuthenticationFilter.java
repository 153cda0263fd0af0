package dev.agentbus.gateway.auth;

import dev.agentbus.api.ApiError;
import dev.agentbus.gateway.errors.ErrorBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The front door of {@code /api/**}, {@code /v1/**} (OpenAI-compatible), {@code /ws} and {@code /mcp} (MCP): every
 * request proves who it is with {@code Authorization: Bearer <API key or gateway token>} or a browser login's
 * cookie, or gets 401. Then, in this order: a browser request that changes something must carry the login's CSRF token (403); a team
 * that requires two-factor login keeps a browser login that has not enrolled to enrolment (403); only admins reach
 * {@code /api/v1/admin/*} (403); and each credential has a request rate (429). Login, registration and a share
 * link's read-only view (its token is its credential) are the only open routes. The {@link Caller} is attached to
 * the request for {@link Callers}.
 */
@ServerFilter({"/api/**", "/v1/**", "/ws", "/ws/**", "/mcp", "/mcp/**"})
class AuthenticationFilter {
    /** The routes that cannot require a login: they are how one gets one. */
    static final Set<String> OPEN = Set.of("/api/v1/auth/login", "/api/v1/auth/register");
    /** Read-only share links: the token in the path is the credential (docs/security.md). */
    static final String SHARED = "/api/v1/shared/";
    /** What a browser login that must enrol in two-factor login may still reach. */
    static final Set<String> ENROLMENT = Set.of("/api/v1/me", "/api/v1/me/totp", "/api/v1/me/totp/confirm",
            "/api/v1/auth/logout");
    public static final String CSRF_HEADER = "X-CSRF-Token";

    private final Authenticator authenticator;
    private final OpenConnections connections;
    private final TrustedProxies proxies;
    private final RequestRateLimiter rates;
    private final Clock clock = Clock.systemUTC();

    public AuthenticationFilter(Authenticator authenticator, AuthSettings settings, OpenConnections connections) {
        this.authenticator = authenticator;
        this.connections = connections;
        this.proxies = settings.proxies();
        this.rates = new RequestRateLimiter(settings.apiRequestsPerMinute());
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<ApiError> authenticate(HttpRequest<?> request) {
        String path = request.getPath();
        request.setAttribute(Callers.ADDRESS, proxies.clientAddress(Callers.remoteOf(request),
                request.getHeaders().getAll("X-Forwarded-For")));
        if (OPEN.contains(path) || path.startsWith(SHARED)) {
            return null;
        }
        Optional<Caller> found;
        String header = request.getHeaders().getAuthorization().orElse(null);
        if (header != null) {
            String presented = header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7) : null;
            found = authenticator.bearer(presented);
            if (found.isEmpty()) {
                return unauthorized(presented == null ? "the Authorization header must be 'Bearer <API key>'"
                        : "unknown or revoked API key");
            }
        } else {
            Optional<Cookie> cookie = request.getCookies().findCookie(LoginCookie.NAME);
            if (cookie.isEmpty()) {
                return unauthorized("log in (POST /api/v1/auth/login) or send Authorization: Bearer <API key>");
            }
            found = authenticator.login(cookie.get().getValue());
            if (found.isEmpty()) {
                return unauthorized("your login has ended or expired; log in again");
            }
        }
        Caller caller = found.get();
        if (caller.via() == Caller.Via.LOGIN && changesState(request.getMethod())
                && !sameToken(caller.csrfToken(), request.getHeaders().get(CSRF_HEADER))) {
            return refuse(HttpStatus.FORBIDDEN, "missing or wrong " + CSRF_HEADER + " header: send the csrfToken "
                    + "from the login answer or GET /api/v1/me");
        }
        if (caller.via() == Caller.Via.LOGIN && !caller.totpEnabled() && !ENROLMENT.contains(path)
                && authenticator.totpRequired()) {
            return refuse(HttpStatus.FORBIDDEN, "this team requires two-factor login: enrol first "
                    + "(POST /api/v1/me/totp, then POST /api/v1/me/totp/confirm)");
        }
        if (path.startsWith("/api/v1/admin/") && !caller.isAdmin()) {
            return refuse(HttpStatus.FORBIDDEN, "only admins may use " + path);
        }
        Optional<Duration> wait = rates.take(caller.via().wireName() + ":" + caller.credentialId(), clock.instant());
        if (wait.isPresent()) {
            long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
            return HttpResponse.<ApiError>status(HttpStatus.TOO_MANY_REQUESTS)
                    .header("Retry-After", Long.toString(seconds))
                    .body(ErrorBodies.of(HttpStatus.TOO_MANY_REQUESTS, "too many requests with this credential; "
                            + "try again in " + seconds + " s"));
        }
        request.setAttribute(Callers.ATTRIBUTE, caller);
        request.setAttribute(OpenConnections.ATTRIBUTE, connections);
        return null;
    }

    private static boolean changesState(HttpMethod method) {
        return method != HttpMethod.GET && method != HttpMethod.HEAD && method != HttpMethod.OPTIONS;
    }

    /** Constant-time, so response timing does not reveal how much of a forged token was right. */
    private static boolean sameToken(String expected, String presented) {
        return expected != null && presented != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<ApiError> unauthorized(String message) {
        return HttpResponse.<ApiError>status(HttpStatus.UNAUTHORIZED).header("WWW-Authenticate", "Bearer")
                .body(ErrorBodies.of(HttpStatus.UNAUTHORIZED, message));
    }

    private static HttpResponse<ApiError> refuse(HttpStatus status, String message) {
        return HttpResponse.<ApiError>status(status).body(ErrorBodies.of(status, message));
    }
}
