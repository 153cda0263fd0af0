package dev.agentbus.api;

/**
 * The one error body of the API: {@code {"error": "not_found", "message": "no session abc"}}.
 *
 * @param error   the HTTP status name in lower case
 * @param message for people
 */
public record ApiError(String error, String message) {
}
