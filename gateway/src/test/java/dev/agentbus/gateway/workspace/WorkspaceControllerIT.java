package dev.agentbus.gateway.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.gateway.readmodels.Await;
import dev.agentbus.gateway.readmodels.TestGateway;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workspace routes for people ({@code /api/v1/sessions/{id}/workspace/...}) against a real broker and a real
 * gateway application context. The orchestrator and the sandbox-worker are played by {@link FakeAgentHost} on the
 * real topics, because the gateway module may not depend on them; the tools are tested in the sandbox-worker, and
 * the whole path by the system test {@code WebSocketIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkspaceControllerIT {
    private static final String TOKEN = TestGateway.TOKEN;

    private EmbeddedKafkaBroker broker;
    private ApplicationContext gateway;
    private FakeAgentHost host;
    private String url;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start(@TempDir Path dir) {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        // The gateway as TestGateway starts it (its own token), with this test's limits.
        TestGateway started = new TestGateway(broker.bootstrapServers(), dir.resolve("data"), null,
                Map.<String, Object>of("agentbus.gateway.files.timeout-seconds", "3"));
        gateway = started.context();
        url = started.url();
        host = new FakeAgentHost(new KafkaSettings(broker.bootstrapServers(), 3, "workspace-test"));
    }

    @AfterAll
    void stop() throws Exception {
        if (host != null) {
            host.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private String session() throws InterruptedException {
        String id = UUID.randomUUID().toString();
        host.createSession(id, "local");
        assertThat(gateway.getBean(SessionDirectory.class).awaitSession(id, Duration.ofSeconds(10))).isTrue();
        return id;
    }

    private HttpResponse<String> send(String method, String path, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).header("Authorization",
                "Bearer " + TOKEN);
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method,
                    HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body)));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.mapper().readTree(r.body());
    }

    private List<String> tools(String session) {
        return host.inputs.stream().filter(i -> i.sessionId().equals(session))
                .map(InputEnvelope::input).filter(i -> i instanceof SessionInput.RunUserTool)
                .map(i -> ((SessionInput.RunUserTool) i).name()).toList();
    }

    @Test
    void a_file_is_written_read_listed_and_deleted() throws Exception {
        String s = session();
        String base = "/api/v1/sessions/" + s + "/workspace";

        HttpResponse<String> put = send("PUT", base + "/file?path=docs/a%20b.txt", Map.of("content", "hello\n"));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(json(put).path("path").asText()).isEqualTo("docs/a b.txt");
        assertThat(json(put).path("result").asText()).isEqualTo("created docs/a b.txt");
        assertThat(json(put).path("diff").asText()).startsWith("--- /dev/null");

        HttpResponse<String> read = send("GET", base + "/file?path=docs/a%20b.txt", null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(json(read).path("content").asText()).isEqualTo("hello\n");
        assertThat(json(read).path("bytes").asInt()).isEqualTo(6);
        assertThat(json(read).path("sha256").asText())
                .isEqualTo(FakeAgentHost.sha256("hello\n".getBytes(StandardCharsets.UTF_8)));

        HttpResponse<String> list = send("GET", base + "/list", null);
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(json(list).path("path").asText()).isEqualTo(".");
        assertThat(json(list).path("entries").toString()).isEqualTo("[{\"name\":\"docs\",\"type\":\"directory\"}]");
        assertThat(json(list).path("truncated").asBoolean()).isFalse();

        HttpResponse<String> delete = send("DELETE", base + "/file?path=docs/a%20b.txt", null);
        assertThat(delete.statusCode()).isEqualTo(200);
        assertThat(json(delete).path("result").asText()).isEqualTo("deleted docs/a b.txt");
        assertThat(send("GET", base + "/file?path=docs/a%20b.txt", null).statusCode()).isEqualTo(404);

        assertThat(tools(s)).containsExactly("write", "download", "ls", "delete", "download");
    }

    @Test
    void a_command_runs_in_the_sandbox_and_a_failed_one_still_shows_its_output() throws Exception {
        String s = session();
        String base = "/api/v1/sessions/" + s + "/workspace";

        HttpResponse<String> ran = send("POST", base + "/commands", Map.of("command", "echo hi", "timeoutSeconds", 9));
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        JsonNode run = json(ran);
        assertThat(run.path("ok").asBoolean()).isTrue();
        assertThat(run.path("exitCode").asInt()).isEqualTo(0);
        assertThat(run.path("output").asText()).isEqualTo("line one\nline two\nexit code: 0");
        assertThat(run.path("command").asText()).isEqualTo("echo hi");
        SessionInput.RunUserTool shell = (SessionInput.RunUserTool) host.inputs.stream()
                .filter(i -> i.sessionId().equals(s)).toList().getLast().input();
        assertThat(Json.mapper().readTree(shell.arguments()).path("timeout_seconds").asInt()).isEqualTo(9);

        JsonNode failed = json(send("POST", base + "/commands", Map.of("command", "sleep 100")));
        assertThat(failed.path("ok").asBoolean()).isFalse();
        assertThat(failed.has("exitCode")).isFalse();
        assertThat(failed.path("error").asText()).startsWith("command timed out");
        assertThat(failed.path("output").asText()).isEqualTo("started\n");
    }

    @Test
    void bad_requests_are_answered_before_anything_is_sent() throws Exception {
        String s = session();
        String base = "/api/v1/sessions/" + s + "/workspace";

        HttpResponse<String> noPath = send("GET", base + "/file", null);
        assertThat(noPath.statusCode()).isEqualTo(400);
        assertThat(json(noPath).path("message").asText()).startsWith("path is required");
        HttpResponse<String> noContent = send("PUT", base + "/file?path=a.txt", Map.of());
        assertThat(noContent.statusCode()).isEqualTo(400);
        assertThat(json(noContent).path("message").asText()).isEqualTo("content is required (it may be empty)");
        HttpResponse<String> noCommand = send("POST", base + "/commands", Map.of("command", " "));
        assertThat(noCommand.statusCode()).isEqualTo(400);
        assertThat(tools(s)).isEmpty();
    }

    @Test
    void a_missing_session_is_404_and_a_running_one_409_and_nothing_is_sent() throws Exception {
        String missing = UUID.randomUUID().toString();
        HttpResponse<String> notFound = send("GET", "/api/v1/sessions/" + missing + "/workspace/list", null);
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(json(notFound).path("message").asText()).isEqualTo("no session " + missing);

        String s = session();
        host.append(s, null, new SessionEvent.UserMessagePosted("work"));
        Await.until("the gateway's view has the turn", Duration.ofSeconds(10), () -> gateway
                .getBean(SessionDirectory.class).state(s).map(st -> !st.acceptsUserTool()).orElse(false));
        HttpResponse<String> busy = send("POST", "/api/v1/sessions/" + s + "/workspace/commands",
                Map.of("command", "ls"));
        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(json(busy).path("message").asText()).isEqualTo("session " + s + " is running; commands can "
                + "run once the turn has ended");
        assertThat(tools(s)).isEmpty();
    }

    @Test
    void a_refused_path_is_403_with_the_workers_words_and_no_answer_in_time_is_504() throws Exception {
        String s = session();
        HttpResponse<String> refused = send("DELETE", "/api/v1/sessions/" + s + "/workspace/file?path=../x", null);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).path("message").asText()).isEqualTo("'../x' is outside the workspace");

        String quiet = session();
        host.silent.add(quiet);
        HttpResponse<String> late = send("GET", "/api/v1/sessions/" + quiet + "/workspace/list?path=src", null);
        assertThat(late.statusCode()).isEqualTo(504);
        assertThat(json(late).path("message").asText()).startsWith("no sandbox-worker answered within 3 s");
    }

    @Test
    void without_a_credential_the_answer_is_401() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/x/workspace/list"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
    }
}
