package dev.agentbus.gateway.errors;

import io.micronaut.http.HttpStatus;

/** The one error body of the API: {@code {"error": "not_found", "message": "no session abc"}}. */
public record ApiError(String error, String message) {
    public static ApiError of(HttpStatus status, String message) {
        return new ApiError(status.name().toLowerCase(), message == null || message.isBlank()
                ? status.getReason() : message);
    }
}
