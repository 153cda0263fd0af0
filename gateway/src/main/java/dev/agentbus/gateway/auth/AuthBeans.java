package dev.agentbus.gateway.auth;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The one login throttle of this gateway, shared by the login route and every route that asks for the password. */
@Factory
class AuthBeans {
    @Singleton
    LoginThrottle loginThrottle(AuthSettings settings) {
        return new LoginThrottle(settings.loginFailuresPerMinute());
    }
}
