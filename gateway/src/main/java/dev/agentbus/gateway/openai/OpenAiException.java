package dev.agentbus.gateway.openai;

import io.micronaut.http.HttpStatus;

/** A request the OpenAI-compatible endpoint refuses, answered in OpenAI's error shape. */
final class OpenAiException extends RuntimeException {
    private final HttpStatus status;
    private final String type;
    private final String param;

    OpenAiException(HttpStatus status, String type, String message, String param) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
    }

    static OpenAiException invalid(String message, String param) {
        return new OpenAiException(HttpStatus.BAD_REQUEST, "invalid_request_error", message, param);
    }

    HttpStatus status() {
        return status;
    }

    OpenAiWire.ErrorBody body() {
        return new OpenAiWire.ErrorBody(new OpenAiWire.ErrorDetail(getMessage(), type, param, null));
    }
}
