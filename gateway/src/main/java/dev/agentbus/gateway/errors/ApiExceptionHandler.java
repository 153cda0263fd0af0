package dev.agentbus.gateway.errors;

import dev.agentbus.api.ApiError;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Turns an {@link ApiException} into its status and the JSON error body. */
@Singleton
class ApiExceptionHandler implements ExceptionHandler<ApiException, HttpResponse<ApiError>> {
    @Override
    public HttpResponse<ApiError> handle(HttpRequest request, ApiException e) {
        return HttpResponse.<ApiError>status(e.status()).body(ErrorBodies.of(e.status(), e.getMessage()));
    }
}
