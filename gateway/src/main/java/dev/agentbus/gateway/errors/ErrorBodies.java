package dev.agentbus.gateway.errors;

import dev.agentbus.api.ApiError;
import io.micronaut.http.HttpStatus;

/** Builds the one error body of the API ({@link ApiError}) for a status, whoever raised the error. */
public final class ErrorBodies {
    private ErrorBodies() {
    }

    /** {@code error} is the status name in lower case; without a message of its own, the reason phrase. */
    public static ApiError of(HttpStatus status, String message) {
        return new ApiError(status.name().toLowerCase(), message == null || message.isBlank()
                ? status.getReason() : message);
    }
}
