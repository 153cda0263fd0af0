package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4's done-criterion, end to end on the standalone stack: a session whose tool calls write files is exported,
 * replayed offline by the CLI (no gateway, no model), forked in the middle (the fork's workspace is the checkpoint
 * at that seq, the original is untouched), and the fork continues live to completion. Also: import of the export as
 * a new session, and a rewind of the original's workspace, which is itself checkpointed.
 */
class ReplayForkIT extends OnStandaloneStack {
    @Test
    void export_replay_offline_fork_in_the_middle_and_continue_the_fork() throws Exception {
        GatewayClient gw = stack.gateway;
        model.replyToolCall("write", "{\"path\":\"a.txt\",\"content\":\"v1\\n\"}")
                .replyToolCall("write", "{\"path\":\"b.txt\",\"content\":\"two\\n\"}")
                .replyToolCall("write", "{\"path\":\"a.txt\",\"content\":\"v2\\n\"}")
                .replyText("a.txt is v2, b.txt is two");
        String id = gw.createSession("files");
        gw.postMessage(id, "write a.txt and b.txt, then change a.txt");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        List<EventEnvelope> results = log.stream().filter(e -> e.event() instanceof ToolCallCompleted).toList();
        assertThat(results).hasSize(3).allSatisfy(e ->
                assertThat(((ToolCallCompleted) e.event()).checkpoint()).as("every write changed a file")
                        .matches("[0-9a-f]{40}"));
        assertThat(files(stack.workspace(id))).containsExactly(Map.entry("a.txt", "v2\n"), Map.entry("b.txt", "two\n"));

        // export: the stored envelopes, one per line
        GatewayClient.Response export = gw.get("/api/v1/sessions/" + id + "/export");
        assertThat(export.status()).isEqualTo(200);
        assertThat(export.headers().get("content-type")).anyMatch(v -> v.startsWith("application/x-ndjson"));
        assertThat(lines(export.body())).extracting(EventCodec::decodeEvent).isEqualTo(log);
        Path file = Files.writeString(dataDir.resolve("files.jsonl"), export.body(), StandardCharsets.UTF_8);

        // replay the file offline: the CLI is pointed at a port nothing listens on, and the model hears nothing
        int modelRequests = model.requestCount();
        EventEnvelope middle = results.get(1); // b.txt written, a.txt still v1
        var replay = CliProcess.run("http://127.0.0.1:9", "no-token", dataDir.resolve("cli"),
                "replay", file.toString(), "--at", Long.toString(middle.seq()));
        assertThat(replay.exitCode()).as(replay.out() + replay.err()).isZero();
        String checkpointAtMiddle = ((ToolCallCompleted) middle.event()).checkpoint();
        assertThat(replay.out()).contains("you ▸ write a.txt and b.txt")
                .contains("→ write {\"path\":\"b.txt\",\"content\":\"two\\n\"}")
                .contains("checkpoint " + checkpointAtMiddle)
                .contains("State at seq " + middle.seq() + " of " + log.size())
                .doesNotContain("a.txt is v2");
        var stepped = CliProcess.runWithInput("http://127.0.0.1:9", "no-token", dataDir.resolve("cli"), "\n\nq\n",
                "replay", file.toString(), "--step");
        assertThat(stepped.exitCode()).as(stepped.out() + stepped.err()).isZero();
        assertThat(stepped.out()).contains("session created").contains("State at seq 3 of " + log.size());
        assertThat(model.requestCount()).isEqualTo(modelRequests);

        // fork in the middle: a new session with the state and the files as they were at that seq
        GatewayClient.Response forked = gw.post("/api/v1/sessions/" + id + "/fork",
                "{\"atSeq\":" + middle.seq() + ",\"title\":\"try b only\"}");
        assertThat(forked.status()).as(forked.body()).isEqualTo(201);
        String fork = forked.json().get("id").asText();
        SessionState expectedAtMiddle = SessionFold.fold(id, log.subList(0, (int) middle.seq()));
        assertThat(forked.json().get("checkpoint").asText()).isEqualTo(checkpointAtMiddle)
                .isEqualTo(expectedAtMiddle.checkpoint());
        List<EventEnvelope> forkLog = gw.log(fork);
        SessionForked first = (SessionForked) forkLog.getFirst().event();
        assertThat(first.fromSessionId()).isEqualTo(id);
        assertThat(first.atSeq()).isEqualTo(middle.seq());
        assertThat(first.state()).isEqualTo(expectedAtMiddle);
        awaitFiles(stack.workspace(fork), Map.of("a.txt", "v1\n", "b.txt", "two\n"));
        JsonNode forkState = gw.get("/api/v1/sessions/" + fork).json();
        assertThat(forkState.get("status").asText()).isEqualTo("IDLE");
        assertThat(forkState.get("forkedFrom").asText()).isEqualTo(id);
        assertThat(forkState.get("title").asText()).isEqualTo("try b only");
        // the original is untouched: same log, same files
        assertThat(gw.log(id)).isEqualTo(log);
        assertThat(files(stack.workspace(id))).containsExactly(Map.entry("a.txt", "v2\n"), Map.entry("b.txt", "two\n"));

        // the fork continues live to completion, with the source's conversation up to the fork
        model.replyToolCall("write", "{\"path\":\"c.txt\",\"content\":\"fork\\n\"}").replyText("fork done");
        gw.postMessage(fork, "now add c.txt");
        List<EventEnvelope> forkDone = gw.awaitLog(fork, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        TurnEnded end = (TurnEnded) forkDone.getLast().event();
        assertThat(end.outcome()).isEqualTo(TurnOutcome.COMPLETED);
        assertThat(end.answer()).isEqualTo("fork done");
        String askedWith = model.requests().get(modelRequests).get("messages").toString();
        assertThat(askedWith).contains("write a.txt and b.txt").contains("b.txt").contains("now add c.txt");
        assertThat(files(stack.workspace(fork))).containsExactly(Map.entry("a.txt", "v1\n"),
                Map.entry("b.txt", "two\n"), Map.entry("c.txt", "fork\n"));
        assertThat(stack.workspace(id).resolve("c.txt")).doesNotExist();
        assertThat(gw.log(id)).isEqualTo(log);

        // fork beyond the log, and of an unknown session
        assertThat(gw.post("/api/v1/sessions/" + id + "/fork", "{\"atSeq\":" + (log.size() + 1) + "}").status())
                .isEqualTo(400);
        assertThat(gw.post("/api/v1/sessions/" + id + "/fork", "{\"atSeq\":0}").status()).isEqualTo(400);
        assertThat(gw.post("/api/v1/sessions/nope/fork", "{\"atSeq\":1}").status()).isEqualTo(404);
    }

    @Test
    void an_export_imports_as_a_new_session_that_can_go_on() throws Exception {
        GatewayClient gw = stack.gateway;
        model.replyToolCall("write", "{\"path\":\"x.txt\",\"content\":\"x\\n\"}").replyText("wrote x");
        String id = gw.createSession("to move");
        gw.postMessage(id, "write x.txt");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        Path file = Files.writeString(dataDir.resolve("move.jsonl"),
                gw.get("/api/v1/sessions/" + id + "/export").body(), StandardCharsets.UTF_8);

        var imported = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "import", file.toString());

        assertThat(imported.exitCode()).as(imported.out() + imported.err()).isZero();
        String newId = imported.out().replaceAll("(?s).*as session (\\S+) .*", "$1");
        assertThat(newId).isNotEqualTo(id);
        List<EventEnvelope> newLog = gw.log(newId);
        SessionForked first = (SessionForked) newLog.getFirst().event();
        assertThat(first.fromSessionId()).isEqualTo(id);
        assertThat(first.atSeq()).isEqualTo(log.size());
        assertThat(first.checkpoint()).as("the files stayed on the machine the log came from").isNull();
        assertThat(first.state().messages()).isEqualTo(SessionFold.fold(id, log).messages());
        assertThat(stack.workspace(newId).resolve("x.txt")).doesNotExist();

        // and it continues
        model.replyText("still here");
        gw.postMessage(newId, "are you there?");
        List<EventEnvelope> after = gw.awaitLog(newId, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        assertThat(((TurnEnded) after.getLast().event()).answer()).isEqualTo("still here");

        // a broken file is refused with the line that is wrong, and creates nothing
        int sessions = gw.get("/api/v1/sessions").json().size();
        String broken = String.join("\n", lines(Files.readString(file)).subList(0, 2)) + "\n{\"type\":\"x.v1\"}\n";
        GatewayClient.Response bad = gw.send(gw.request("/api/v1/sessions/import")
                .header("Content-Type", "application/x-ndjson")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(broken)).build());
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("error").asText()).isEqualTo("bad_request");
        assertThat(bad.json().get("message").asText()).startsWith("line 3: not an event envelope");
        assertThat(gw.get("/api/v1/sessions").json().size()).isEqualTo(sessions);
    }

    @Test
    void a_rewind_restores_a_checkpoint_and_is_itself_checkpointed() throws Exception {
        GatewayClient gw = stack.gateway;
        model.replyToolCall("write", "{\"path\":\"r.txt\",\"content\":\"first\\n\"}")
                .replyToolCall("write", "{\"path\":\"r.txt\",\"content\":\"second\\n\"}")
                .replyToolCall("write", "{\"path\":\"s.txt\",\"content\":\"new\\n\"}")
                .replyText("done");
        String id = gw.createSession("rewind me");
        gw.postMessage(id, "write twice");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
        String firstCheckpoint = log.stream().map(EventEnvelope::event).filter(ToolCallCompleted.class::isInstance)
                .map(e -> ((ToolCallCompleted) e).checkpoint()).findFirst().orElseThrow();
        int modelRequests = model.requestCount();

        var rewound = CliProcess.run(stack.stack.gatewayUrl(), StandaloneStack.TOKEN, dataDir.resolve("cli"),
                "rewind", id, firstCheckpoint.substring(0, 12));

        assertThat(rewound.exitCode()).as(rewound.out() + rewound.err()).isZero();
        assertThat(rewound.out()).contains("to checkpoint " + firstCheckpoint);
        assertThat(files(stack.workspace(id))).containsExactly(Map.entry("r.txt", "first\n"));
        List<EventEnvelope> after = gw.log(id);
        ToolCallCompleted rewind = (ToolCallCompleted) after.getLast().event();
        assertThat(rewind.ok()).isTrue();
        assertThat(rewind.checkpoint()).isNotNull().isNotEqualTo(firstCheckpoint);
        assertThat(model.requestCount()).as("a rewind is not a turn").isEqualTo(modelRequests);
        // unknown checkpoints are refused before anything runs
        GatewayClient.Response unknown = gw.post("/api/v1/sessions/" + id + "/rewind", "{\"checkpoint\":\"abcdef123\"}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("message").asText()).contains("no checkpoint abcdef123");
    }

    private static List<String> lines(String body) {
        return Arrays.stream(body.split("\n")).filter(l -> !l.isBlank()).toList();
    }

    /** The fork's workspace is restored by the worker when it sees the fork's first event: wait for it. */
    private static void awaitFiles(Path dir, Map<String, String> expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<String, String> actual = Map.of();
        while (System.nanoTime() < deadline) {
            actual = Files.isDirectory(dir) ? files(dir) : Map.of();
            if (actual.equals(new TreeMap<>(expected))) {
                return;
            }
            Thread.sleep(100);
        }
        assertThat(actual).as("files of " + dir).isEqualTo(new TreeMap<>(expected));
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString(), Files.readString(p));
            }
        }
        return files;
    }
}
