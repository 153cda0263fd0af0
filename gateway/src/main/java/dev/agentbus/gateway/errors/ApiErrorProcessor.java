package dev.agentbus.gateway.errors;

import dev.agentbus.api.ApiError;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.http.server.exceptions.response.HateoasErrorResponseProcessor;
import jakarta.inject.Singleton;

/**
 * Gives every error Micronaut itself produces (malformed JSON, a body over the size limit, a wrong content type,
 * an unknown route, a missing field) the same {@code {error, message}} body as the gateway's own errors.
 */
@Singleton
@Replaces(HateoasErrorResponseProcessor.class)
class ApiErrorProcessor implements ErrorResponseProcessor<ApiError> {
    @Override
    public MutableHttpResponse<ApiError> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        HttpStatus status = response.getStatus();
        String message = context.getErrors().isEmpty() ? null : context.getErrors().getFirst().getMessage();
        if (status == HttpStatus.BAD_REQUEST && message != null && message.contains("JSON")) {
            message = "the body is not valid JSON: " + message;
        }
        return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(ErrorBodies.of(status, message));
    }
}
