package dev.agentbus.gateway.auth;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;

import java.time.Duration;

/**
 * The browser login cookie: HttpOnly (page scripts cannot read it), SameSite=Strict (other sites' pages cannot send
 * it) and Secure when the request came over TLS or {@code agentbus.auth.secure-cookies} says TLS ends at a proxy.
 */
public final class LoginCookie {
    public static final String NAME = "agentbus_login";

    private LoginCookie() {
    }

    public static Cookie of(String value, Duration maxAge, HttpRequest<?> request, AuthSettings settings) {
        return Cookie.of(NAME, value).httpOnly(true).sameSite(SameSite.Strict).path("/").maxAge(maxAge)
                .secure(settings.secureCookies() || request.isSecure());
    }

    /** Tells the browser to drop the cookie. */
    public static Cookie cleared(HttpRequest<?> request, AuthSettings settings) {
        return of("", Duration.ZERO, request, settings);
    }
}
