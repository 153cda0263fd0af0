package dev.agentbus.events.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SessionState is part of the wire schema (fork payloads, snapshots): its JSON must read back to an equal state,
 * and its shape — messages an array, toolCalls an object keyed by call id in the order the calls were proposed —
 * must not depend on the fold's internal collections.
 */
class SessionStateJsonTest {

    @Test
    void a_folded_state_reads_back_from_its_json_as_an_equal_state() throws Exception {
        SessionState folded = SessionFold.fold(FoldScenario.SESSION, richHistory());

        String json = Json.mapper().writeValueAsString(folded);
        SessionState read = Json.mapper().readValue(json, SessionState.class);

        assertThat(read).isEqualTo(folded);
        assertThat(folded).isEqualTo(read);
        assertThat(read.hashCode()).isEqualTo(folded.hashCode());
        assertThat(Json.mapper().writeValueAsString(read)).isEqualTo(json);
    }

    @Test
    void every_golden_state_reads_back_as_an_equal_state() throws Exception {
        Path dir = Stream.of(Paths.get("src/test/resources/golden"), Paths.get("events/src/test/resources/golden"))
                .filter(Files::isDirectory).findFirst().orElseThrow();
        List<Path> histories;
        try (Stream<Path> files = Files.list(dir)) {
            histories = files.filter(p -> p.toString().endsWith(".jsonl")).toList();
        }
        assertThat(histories).isNotEmpty();
        for (Path history : histories) {
            List<EventEnvelope> events = Files.readAllLines(history).stream().filter(l -> !l.isBlank())
                    .map(EventCodec::decodeEvent).toList();
            SessionState folded = SessionFold.fold(events.getFirst().sessionId(), events);

            SessionState read = Json.mapper().readValue(Json.mapper().writeValueAsBytes(folded), SessionState.class);

            assertThat(read).as(history.getFileName().toString()).isEqualTo(folded);
        }
    }

    @Test
    void messages_are_a_json_array_and_tool_calls_an_object_in_proposal_order() throws Exception {
        SessionState folded = SessionFold.fold(FoldScenario.SESSION, richHistory());

        JsonNode tree = Json.mapper().valueToTree(folded);

        assertThat(tree.get("messages").isArray()).isTrue();
        assertThat(tree.get("messages")).hasSize(folded.messages().size());
        assertThat(tree.get("messages").get(0).get("kind").asText()).isEqualTo("user");
        assertThat(tree.get("toolCalls").isObject()).isTrue();
        List<String> keys = new ArrayList<>();
        tree.get("toolCalls").fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("call-z", "call-a", "upload-1");
    }

    @Test
    void a_state_built_from_plain_collections_writes_the_same_json_as_the_folded_one() throws Exception {
        SessionState folded = SessionFold.fold(FoldScenario.SESSION, richHistory());
        Map<String, ToolCallView> plainCalls = new LinkedHashMap<>(folded.toolCalls());
        SessionState plain = new SessionState(folded.sessionId(), folded.userId(), folded.title(), folded.status(),
                folded.lastSeq(), folded.createdAt(), folded.updatedAt(), new ArrayList<>(folded.messages()),
                plainCalls, folded.usage(), folded.modelCalls(), folded.turns(), folded.turn(), folded.pendingWait(),
                folded.memory(), folded.memoryVersion(), folded.lastModel(), folded.lastOutcome(), folded.lastAnswer(),
                folded.lastError(), folded.shell(), folded.checkpoint(), folded.forkedFrom(), folded.forkedAtSeq(),
                folded.permissionMode(), new ArrayList<>(folded.pendingApprovals()),
                new ArrayList<>(folded.alwaysAllowed()), new ArrayList<>(folded.queuedWhispers()), folded.context(),
                folded.planning());

        assertThat(Json.mapper().writeValueAsString(plain)).isEqualTo(Json.mapper().writeValueAsString(folded));
        assertThat(plain).isEqualTo(folded);
    }

    @Test
    void a_fork_carrying_a_folded_state_round_trips_through_the_codec_and_folds_alike() {
        SessionState source = SessionFold.fold(FoldScenario.SESSION, richHistory());
        EventEnvelope fork = new EventEnvelope("evt-f", "ses-fork", 1, Instant.parse("2025-03-15T00:00:00Z"), "inp-f",
                FoldScenario.USER, new SessionForked(FoldScenario.SESSION, source.lastSeq(), null, "fork", source));

        EventEnvelope read = EventCodec.decodeEvent(new String(EventCodec.encodeEvent(fork),
                java.nio.charset.StandardCharsets.UTF_8));

        assertThat(read).isEqualTo(fork);
        assertThat(SessionFold.evolve(SessionState.initial("ses-fork"), read))
                .isEqualTo(SessionFold.evolve(SessionState.initial("ses-fork"), fork));
    }

    /** Tool calls proposed in a non-alphabetical order, one run by the user, shell state, a pending wait. */
    static List<EventEnvelope> richHistory() {
        List<SessionEvent> events = List.of(
                new SessionCreated("json"),
                new UserMessagePosted("do things"),
                new MemoryAttached("- likes tea", 2),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "qwen", null, "thinking",
                        List.of(new ToolCallSpec("call-z", "shell", "{\"command\":\"ls\"}"),
                                new ToolCallSpec("call-a", "read", "{\"path\":\"a\"}")),
                        new TokenUsage(100, 10, 110), "tool_calls"),
                new ToolCallRequested("call-z", "shell", "{\"command\":\"ls\"}"),
                new ToolCallStarted("call-z", "w-1"),
                new ToolCallCompleted("call-z", true, "a\nb\n", null, null, false, 12, false,
                        new ShellState("/workspace", Map.of("A", "1")), "ckpt-1", null),
                new ToolCallRequested("call-a", "read", "{\"path\":\"a\"}"),
                new ToolCallCompleted("call-a", false, null, "no such file", null, false, 1, false),
                new ToolCallRequested("upload-1", "write", "{\"path\":\"u\"}", null, true),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "qwen", "later", null, List.of(), new TokenUsage(200, 20, 220), "stop"),
                new WaitScheduled("w-1", Instant.parse("2030-01-01T00:00:00Z"), "later", null));
        List<EventEnvelope> out = new ArrayList<>();
        for (SessionEvent e : events) {
            out.add(FoldScenario.envelope(out.size() + 1, e));
        }
        return out;
    }
}
