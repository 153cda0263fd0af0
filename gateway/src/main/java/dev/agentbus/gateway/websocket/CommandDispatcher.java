package dev.agentbus.gateway.websocket;

import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Finds a command's handler by name and turns whatever goes wrong into an error reply, so one bad command never
 * ends a connection: an unknown name lists the known ones; the API's errors ({@link ApiException}) keep their code
 * ({@code bad_request}, {@code not_found}, {@code conflict} …, as over HTTP); Kafka out of reach is
 * {@code service_unavailable}; a bug is {@code internal_server_error} and logged.
 */
final class CommandDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(CommandDispatcher.class);

    private final Map<String, CommandHandler> handlers;

    CommandDispatcher(Map<String, CommandHandler> handlers) {
        this.handlers = Map.copyOf(handlers);
    }

    /** The command names, sorted. */
    List<String> commands() {
        return handlers.keySet().stream().sorted().toList();
    }

    Reply dispatch(Call call) throws InterruptedException {
        CommandHandler handler = handlers.get(call.name());
        if (handler == null) {
            return new Reply.Failure(call.id(), call.name(), "unknown_command", "unknown command '" + call.name()
                    + "'; the commands are: " + String.join(", ", commands()));
        }
        try {
            return handler.handle(call);
        } catch (ApiException e) {
            return new Reply.Failure(call.id(), call.name(), e.status().name().toLowerCase(), e.getMessage());
        } catch (InputSender.KafkaUnavailableException e) {
            return new Reply.Failure(call.id(), call.name(), "service_unavailable", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("WebSocket command {} failed", call.name(), e);
            return new Reply.Failure(call.id(), call.name(), "internal_server_error", "the command failed: " + e);
        }
    }
}
