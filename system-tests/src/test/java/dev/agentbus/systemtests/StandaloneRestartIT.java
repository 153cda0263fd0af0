package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/** Data persists: a session from before a restart of the whole stack can be shown and continued after it. */
class StandaloneRestartIT {
    @TempDir
    Path dataDir;

    @Test
    void a_session_survives_a_restart_of_the_stack_and_continues() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start()) {
            model.replyToolCall("write", "{\"path\":\"notes.md\",\"content\":\"# Notes\\n\"}")
                    .replyText("Created notes.md.")
                    .replyText("It has one heading.");
            String id;
            JsonNode before;
            try (StandaloneStack first = new StandaloneStack(dataDir, model, Map.of())) {
                id = first.gateway.createSession("persist");
                first.gateway.postMessage(id, "create notes.md");
                first.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
                before = first.gateway.get("/api/v1/sessions/" + id).json();
            }

            try (StandaloneStack second = new StandaloneStack(dataDir, model, Map.of())) {
                JsonNode after = second.gateway.get("/api/v1/sessions/" + id).json();
                assertThat(after).isEqualTo(before);
                assertThat(second.workspace(id).resolve("notes.md")).hasContent("# Notes");

                second.gateway.postMessage(id, "what is in it?");
                List<EventEnvelope> log = second.gateway.awaitLog(id,
                        e -> e.event() instanceof TurnEnded && e.seq() > before.get("lastSeq").asLong(),
                        Duration.ofSeconds(60));
                assertThat(events(log, TurnEnded.class).getLast().answer()).isEqualTo("It has one heading.");
                // the model saw the conversation from before the restart
                assertThat(model.lastRequest().get("messages").toString())
                        .contains("create notes.md").contains("Created notes.md.");
            }
        }
    }
}
