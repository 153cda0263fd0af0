package dev.agentbus.gateway.errors;

import dev.agentbus.api.ApiError;
import dev.agentbus.gateway.sessions.InputSender;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Kafka down is the platform's problem, not the client's: 503 with the reason, so the client may retry. */
@Singleton
class KafkaUnavailableHandler
        implements ExceptionHandler<InputSender.KafkaUnavailableException, HttpResponse<ApiError>> {
    @Override
    public HttpResponse<ApiError> handle(HttpRequest request, InputSender.KafkaUnavailableException e) {
        return HttpResponse.<ApiError>status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(ErrorBodies.of(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage()));
    }
}
