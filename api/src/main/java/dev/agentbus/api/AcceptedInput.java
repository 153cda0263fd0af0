package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST .../messages} and {@code POST .../cancel}: the id of the input now durably on Kafka. Events recorded in
 * answer to it carry it as {@code causationId}; a rejection names it in {@code inputId}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AcceptedInput(String inputId) {
}
