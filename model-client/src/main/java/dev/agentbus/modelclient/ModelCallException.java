package dev.agentbus.modelclient;

import java.util.OptionalInt;

/**
 * A model call failed after the client's retries. The message says which server and why, in words an
 * operator can act on (e.g. "model server at http://localhost:1234/v1 did not answer: connection
 * refused", or the HTTP status with the server's own error text).
 */
public class ModelCallException extends Exception {

    private final int httpStatus;

    public ModelCallException(String message, Throwable cause) {
        this(message, 0, cause);
    }

    public ModelCallException(String message, int httpStatus, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
    }

    /**
     * The HTTP error status the server answered with; empty when there was none (no answer at all, an
     * unreadable answer, or an error reported inside a stream that had begun with 200).
     */
    public OptionalInt httpStatus() {
        return httpStatus > 0 ? OptionalInt.of(httpStatus) : OptionalInt.empty();
    }
}
