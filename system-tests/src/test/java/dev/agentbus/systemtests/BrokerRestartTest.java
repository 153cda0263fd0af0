package dev.agentbus.systemtests;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static dev.agentbus.systemtests.EndToEndTest.events;
import static org.assertj.core.api.Assertions.assertThat;

/** The broker stops and starts again in the middle of a turn: every service reconnects and the turn completes. */
class BrokerRestartTest {
    @TempDir
    Path dataDir;

    @Test
    void a_turn_survives_a_broker_restart_while_a_tool_runs() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start();
             StandaloneStack stack = new StandaloneStack(dataDir, model, Map.of())) {
            model.replyToolCall("shell", "{\"command\":\"echo ran >> runs.txt; sleep 4; echo done\"}")
                    .replyText("Finished.");
            GatewayClient gw = stack.gateway;
            String id = gw.createSession("broker restart");
            gw.postMessage(id, "run it");
            gw.awaitLog(id, e -> e.event() instanceof ToolCallStarted, Duration.ofSeconds(30));

            stack.stack.broker().restart();

            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(120));
            assertThat(events(log, TurnEnded.class).getFirst().outcome()).isEqualTo(TurnOutcome.COMPLETED);
            assertThat(events(log, ToolCallCompleted.class)).singleElement()
                    .satisfies(c -> assertThat(c.output()).contains("done"));
            assertThat(Files.readAllLines(stack.workspace(id).resolve("runs.txt"))).containsExactly("ran");
            assertThat(log).extracting(EventEnvelope::seq)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
            assertThat(model.requestCount()).isEqualTo(2);
        }
    }
}
