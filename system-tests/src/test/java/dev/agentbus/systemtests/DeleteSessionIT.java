package dev.agentbus.systemtests;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.Poll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deleting a session end to end on the standalone stack: the session leaves every route, list and search, and the
 * sandbox-worker removes its workspace and checkpoints; a running command is killed first.
 */
class DeleteSessionIT extends OnStandaloneStack {
    static final Duration WAIT = Duration.ofSeconds(60);

    @BeforeEach
    void freshScript() {
        model.reset();
    }

    private Path checkpoints(String sessionId) {
        return stack.dataDir.resolve("workspaces").resolve(".checkpoints").resolve("local")
                .resolve(sessionId + ".git");
    }

    private GatewayClient.Response delete(String sessionId) {
        GatewayClient gw = stack.gateway;
        return gw.send(gw.request("/api/v1/sessions/" + sessionId).DELETE().build());
    }

    @Test
    void a_deleted_session_is_gone_from_every_route_list_and_search_and_its_files_are_removed() throws Exception {
        model.replyToolCall("write", "{\"path\":\"plan.txt\",\"content\":\"the okapi plan\"}")
                .replyText("Saved the okapi plan.");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("okapi");
        gw.postMessage(id, "write down the okapi plan");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        assertThat(stack.workspace(id).resolve("plan.txt")).hasContent("the okapi plan");
        assertThat(checkpoints(id)).isDirectory();
        Poll.until("the search finds the session", WAIT, () -> gw.get("/api/v1/search?q=okapi").body().contains(id));

        GatewayClient.Response deleted = delete(id);
        assertThat(deleted.status()).isEqualTo(202);
        assertThat(deleted.json().get("inputId").asText()).isNotBlank();

        Poll.until("the session answers 404", WAIT, () -> gw.get("/api/v1/sessions/" + id).status() == 404);
        assertThat(gw.get("/api/v1/sessions/" + id + "/log").status()).isEqualTo(404);
        assertThat(gw.get("/api/v1/sessions/" + id + "/export").status()).isEqualTo(404);
        assertThat(gw.post("/api/v1/sessions/" + id + "/messages", "{\"text\":\"hello?\"}").status()).isEqualTo(404);
        assertThat(gw.get("/api/v1/sessions").body()).doesNotContain(id);
        Poll.until("the read model lists it no more", WAIT,
                () -> !gw.get("/api/v1/read-models/sessions").body().contains(id));
        Poll.until("the search finds it no more", WAIT, () -> !gw.get("/api/v1/search?q=okapi").body().contains(id));
        Poll.until("its workspace and checkpoints are removed", WAIT,
                () -> !Files.exists(stack.workspace(id)) && !Files.exists(checkpoints(id)));
        assertThat(delete(id).status()).as("deleting it again").isEqualTo(404);
    }

    @Test
    void deleting_during_a_command_kills_it_and_removes_the_files_once_it_is_reported() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo begun > started.txt; sleep 30; echo never > ended.txt\"}");
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("nap");
        gw.postMessage(id, "take a long nap");
        Path started = stack.workspace(id).resolve("started.txt");
        Poll.until("the command is under way", WAIT, () -> Files.exists(started));

        long deletedAt = System.nanoTime();
        assertThat(delete(id).status()).isEqualTo(202);

        Poll.until("the workspace is removed", WAIT, () -> !Files.exists(stack.workspace(id)));
        assertThat(Duration.ofNanos(System.nanoTime() - deletedAt)).as("the command was killed, not waited for")
                .isLessThan(Duration.ofSeconds(20));
        assertThat(gw.get("/api/v1/sessions/" + id).status()).isEqualTo(404);
        assertThat(model.requests()).as("no model call after the deletion").hasSize(1);
    }

    @Test
    void a_session_that_does_not_exist_is_404_with_a_json_message() {
        GatewayClient.Response r = delete("00000000-0000-0000-0000-000000000000");

        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().get("message").asText()).isEqualTo("no session 00000000-0000-0000-0000-000000000000");
    }
}
