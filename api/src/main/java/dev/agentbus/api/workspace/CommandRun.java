package dev.agentbus.api.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST .../workspace/commands}: a command line run in the session's persistent shell. {@code ok} is true when
 * it ran to completion, whatever its exit code; false when it could not finish (its time-out), then {@code error}
 * says why and {@code output} holds what it printed until then. {@code exitCode} is absent when it did not finish.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommandRun(String callId, String command, boolean ok, Integer exitCode, String output, String error,
                         boolean truncated, long durationMs) {
}
