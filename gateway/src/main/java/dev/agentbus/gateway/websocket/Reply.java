package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.api.ApiJson;

import java.time.Instant;
import java.util.List;

/**
 * What the gateway sends over {@code /ws}: one JSON object per text message, its kind in {@code type}. Replies to a
 * command carry the command's name and the client's {@code id}, when it sent one, so a client can run several
 * commands at once and match the answers. docs/websocket.md shows each.
 */
sealed interface Reply {

    /** The JSON text of the message. */
    default String json() {
        return ApiJson.write(this);
    }

    /** Sent once, when the connection is ready for commands: which session it works in, and its limits. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Ready(String type, String sessionId, String userId, long maxTextBytes, long maxUploadBytes,
                 List<String> commands) implements Reply {
        Ready(String sessionId, String userId, long maxTextBytes, long maxUploadBytes, List<String> commands) {
            this("ready", sessionId, userId, maxTextBytes, maxUploadBytes, commands);
        }
    }

    /**
     * A command's answer. {@code result} has OS-Agent's shape for the command; {@code callId} names the tool call
     * in the session's log that did the work; {@code output} is the worker's words where {@code result} is only
     * {@code "ok"}; {@code exitCode} and {@code finishReason} are set by the commands that have them.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Result(String type, JsonNode id, String command, Object result, String callId, String output,
                  Integer exitCode, String finishReason) implements Reply {
        static Result of(JsonNode id, String command, Object result) {
            return new Result("result", id, command, result, null, null, null, null);
        }

        Result withCallId(String callId) {
            return new Result(type, id, command, result, callId, output, exitCode, finishReason);
        }

        Result withOutput(String output) {
            return new Result(type, id, command, result, callId, output, exitCode, finishReason);
        }

        Result withExitCode(Integer exitCode) {
            return new Result(type, id, command, result, callId, output, exitCode, finishReason);
        }

        Result withFinishReason(String finishReason) {
            return new Result(type, id, command, result, callId, output, exitCode, finishReason);
        }
    }

    /**
     * A piece of a streamed answer, before its {@link Result}: {@code stream} is {@code content} (the model's text),
     * {@code reasoning} (its thinking and the agent's tool calls, one line each) or {@code output} (a command's
     * output). A live view: the result holds the whole.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delta(String type, JsonNode id, String command, String stream, String text) implements Reply {
        Delta(JsonNode id, String command, String stream, String text) {
            this("delta", id, command, stream, text);
        }
    }

    /**
     * A command that failed, or a message that is not a command. {@code error} is a code ({@code bad_request},
     * {@code not_found}, {@code conflict}, {@code unknown_command} …; the HTTP API's codes where there is one),
     * {@code message} says why, for people. A command that ran but could not finish adds its {@code output}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Failure(String type, JsonNode id, String command, String error, String message, String callId,
                   String output) implements Reply {
        Failure(JsonNode id, String command, String error, String message) {
            this("error", id, command, error, message, null, null);
        }

        Failure withRun(String callId, String output) {
            return new Failure(type, id, command, error, message, callId, output);
        }
    }

    /** A notification someone sent to the people following this session ({@code send_notification}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Notification(String type, String sessionId, long seq, Instant time, String sentBy, String message)
            implements Reply {
        Notification(String sessionId, long seq, Instant time, String sentBy, String message) {
            this("notification", sessionId, seq, time, sentBy, message);
        }
    }

    /**
     * A notification of the connection's user ({@code GET /api/v1/me/notifications}), from any of their sessions, as
     * it is recorded: a turn ended, an approval waits, a wait fired, a message.
     */
    record UserNotification(String type, dev.agentbus.api.notifying.NotificationItem notification) implements Reply {
        UserNotification(dev.agentbus.api.notifying.NotificationItem notification) {
            this("user_notification", notification);
        }
    }
}
