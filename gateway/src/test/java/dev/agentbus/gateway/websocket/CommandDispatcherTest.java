package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentbus.events.Json;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpStatus;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Finding a command's handler, and turning what goes wrong in it into an error reply that keeps the id. */
class CommandDispatcherTest {
    private final CommandDispatcher dispatcher = new CommandDispatcher(Map.of(
            "echo", call -> Reply.Result.of(call.id(), call.name(), call.string("text")),
            "missing", call -> {
                throw ApiException.notFound("no session s-1");
            },
            "busy", call -> {
                throw new ApiException(HttpStatus.CONFLICT, "session s-1 is running");
            },
            "broken", call -> {
                throw new IllegalStateException("a bug");
            }));

    private static Call call(String name, String argsJson) throws Exception {
        var args = (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(argsJson);
        return new Call(new Frame.Command(new TextNode("r-1"), name, args, null), "ada", "s-1", null,
                new RecordingOutbox());
    }

    @Test
    void a_known_command_runs_its_handler() throws Exception {
        Reply reply = dispatcher.dispatch(call("echo", "{\"text\":\"hi\"}"));

        assertThat(reply.json()).isEqualTo("{\"type\":\"result\",\"id\":\"r-1\",\"command\":\"echo\",\"result\":\"hi\"}");
    }

    @Test
    void an_unknown_command_is_named_with_the_commands_there_are() throws Exception {
        Reply reply = dispatcher.dispatch(call("rm_rf", "{}"));

        assertThat(reply).isEqualTo(new Reply.Failure(new TextNode("r-1"), "rm_rf", "unknown_command",
                "unknown command 'rm_rf'; the commands are: broken, busy, echo, missing"));
    }

    @Test
    void the_apis_errors_keep_their_codes() throws Exception {
        assertThat(dispatcher.dispatch(call("missing", "{}"))).isEqualTo(new Reply.Failure(new TextNode("r-1"),
                "missing", "not_found", "no session s-1"));
        assertThat(dispatcher.dispatch(call("busy", "{}"))).isInstanceOfSatisfying(Reply.Failure.class,
                f -> assertThat(f.error()).isEqualTo("conflict"));
    }

    @Test
    void a_missing_or_mistyped_argument_is_a_bad_request_naming_it() throws Exception {
        assertThat(dispatcher.dispatch(call("echo", "{}"))).isEqualTo(new Reply.Failure(new TextNode("r-1"), "echo",
                "bad_request", "text is required (a string)"));
        assertThat(dispatcher.dispatch(call("echo", "{\"text\":[1]}"))).isInstanceOfSatisfying(Reply.Failure.class,
                f -> assertThat(f.message()).isEqualTo("text must be a string"));
    }

    @Test
    void a_bug_is_an_internal_error_not_a_closed_connection() throws Exception {
        assertThat(dispatcher.dispatch(call("broken", "{}"))).isInstanceOfSatisfying(Reply.Failure.class,
                f -> assertThat(f.error()).isEqualTo("internal_server_error"));
    }
}
