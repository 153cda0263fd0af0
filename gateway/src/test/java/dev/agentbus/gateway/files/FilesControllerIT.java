package dev.agentbus.gateway.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.Json;
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
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file endpoints against a real broker and a real gateway application context. The orchestrator and the
 * sandbox-worker are played by {@link FakeOrchestratorAndWorker} on the real topics, because the gateway module may
 * not depend on them; the tools themselves are tested in the sandbox-worker (UploadDownloadToolsTest).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilesControllerIT {
    private static final String TOKEN = TestGateway.TOKEN;

    private EmbeddedKafkaBroker broker;
    private ApplicationContext gateway;
    private FakeOrchestratorAndWorker host;
    private String url;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start(@TempDir Path dir) {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        // The gateway as TestGateway starts it (its own token), with this test's limits.
        TestGateway started = new TestGateway(broker.bootstrapServers(), dir.resolve("data"), null,
                Map.<String, Object>of("agentbus.gateway.files.timeout-seconds", "3", "agentbus.gateway.files.max-bytes", "200000"));
        gateway = started.context();
        url = started.url();
        host = new FakeOrchestratorAndWorker(new KafkaSettings(broker.bootstrapServers(), 3, "files-test"));
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

    /** A new idle session of the token's user, as the gateway sees it. */
    private String session() throws InterruptedException {
        String id = UUID.randomUUID().toString();
        host.append(id, new SessionEvent.SessionCreated("files"));
        assertThat(gateway.getBean(SessionDirectory.class).awaitSession(id, Duration.ofSeconds(10))).isTrue();
        return id;
    }

    private HttpResponse<byte[]> put(String session, String path, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/" + session + "/files/" + path))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> get(String session, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/" + session + "/files/" + path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws Exception {
        return Json.mapper().readTree(response.body());
    }

    private long userToolInputs(String session) {
        return host.inputs.stream().filter(i -> i.sessionId().equals(session)
                && i.input() instanceof SessionInput.RunUserTool).count();
    }

    @Test
    void an_uploaded_file_goes_through_the_log_and_downloads_byte_for_byte() throws Exception {
        String session = session();
        byte[] content = new byte[150_000];
        new Random(3).nextBytes(content);

        HttpResponse<byte[]> up = put(session, "data/sub/blob.bin", content);

        assertThat(up.statusCode()).as(new String(up.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        JsonNode answer = json(up);
        assertThat(answer.path("path").asText()).isEqualTo("data/sub/blob.bin");
        assertThat(answer.path("bytes").asInt()).isEqualTo(150_000);
        assertThat(answer.path("sha256").asText()).isEqualTo(FakeOrchestratorAndWorker.sha256(content));
        assertThat(answer.path("result").asText()).isEqualTo("uploaded data/sub/blob.bin (150000 bytes)");
        assertThat(host.files.get(session).get("data/sub/blob.bin")).isEqualTo(content);
        SessionInput.RunUserTool sent = (SessionInput.RunUserTool) host.inputs.stream()
                .filter(i -> i.sessionId().equals(session)).findFirst().orElseThrow().input();
        assertThat(sent.name()).isEqualTo("upload");
        assertThat(sent.callId()).isEqualTo(answer.path("callId").asText());

        HttpResponse<byte[]> down = get(session, "data/sub/blob.bin");

        assertThat(down.statusCode()).isEqualTo(200);
        assertThat(down.body()).isEqualTo(content);
        assertThat(down.headers().firstValue("Content-Disposition")).contains("attachment; filename=\"blob.bin\"");
    }

    @Test
    void the_body_is_stored_as_is_whatever_content_type_the_client_sends() throws Exception {
        String session = session();
        byte[] json = "{\"not\": \"parsed\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] text = "plain text\n".getBytes(StandardCharsets.UTF_8);

        for (var upload : Map.of("a.json", "application/json", "b.txt", "text/plain").entrySet()) {
            byte[] body = upload.getKey().endsWith("json") ? json : text;
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/"
                            + session + "/files/" + upload.getKey())).header("Authorization", "Bearer " + TOKEN)
                    .header("Content-Type", upload.getValue()).PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).as(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        }

        assertThat(host.files.get(session).get("a.json")).isEqualTo(json);
        assertThat(host.files.get(session).get("b.txt")).isEqualTo(text);
    }

    @Test
    void an_encoded_path_reaches_the_worker_decoded() throws Exception {
        String session = session();

        assertThat(put(session, "my%20notes/a%2Bb.txt", "hi".getBytes(StandardCharsets.UTF_8)).statusCode())
                .isEqualTo(200);

        assertThat(host.files.get(session)).containsKey("my notes/a+b.txt");
    }

    @Test
    void a_missing_or_foreign_session_is_404_and_nothing_is_sent() throws Exception {
        String unknown = UUID.randomUUID().toString();

        HttpResponse<byte[]> response = put(unknown, "a.txt", new byte[1]);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).path("error").asText()).isEqualTo("not_found");
        assertThat(json(response).path("message").asText()).isEqualTo("no session " + unknown);
        assertThat(userToolInputs(unknown)).isZero();
    }

    @Test
    void while_a_turn_runs_the_answer_is_409_and_nothing_is_sent() throws Exception {
        String session = session();
        host.append(session, new SessionEvent.UserMessagePosted("work"));
        host.append(session, new SessionEvent.ModelCallStarted("r1", 1));
        Await.until("the gateway's view has the turn", Duration.ofSeconds(10), () -> gateway
                .getBean(SessionDirectory.class).state(session).map(st -> !st.acceptsUserTool()).orElse(false));

        HttpResponse<byte[]> response = put(session, "a.txt", new byte[1]);

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(json(response).path("message").asText()).isEqualTo("session " + session + " is running; files "
                + "can be uploaded once the turn has ended");
        assertThat(userToolInputs(session)).isZero();
    }

    @Test
    void an_input_the_orchestrator_rejects_is_409_with_its_reason() throws Exception {
        String session = session();
        host.mode(session, FakeOrchestratorAndWorker.Mode.REJECT);

        HttpResponse<byte[]> response = get(session, "a.txt");

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(json(response).path("message").asText())
                .isEqualTo("a turn is running; download can run once it has ended");
    }

    @Test
    void a_file_over_the_limit_is_413_and_nothing_is_sent() throws Exception {
        String session = session();

        HttpResponse<byte[]> response = put(session, "big.bin", new byte[200_001]);

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(json(response).path("error").asText()).isEqualTo("request_entity_too_large");
        assertThat(json(response).path("message").asText())
                .isEqualTo("the file is 200001 bytes; uploads are at most 200000 bytes");
        assertThat(userToolInputs(session)).isZero();
    }

    @Test
    void a_missing_file_is_404_and_a_refused_path_403_with_the_workers_words() throws Exception {
        String session = session();

        HttpResponse<byte[]> missing = get(session, "nothing-here.txt");
        HttpResponse<byte[]> refused = get(session, "..%2F..%2Fetc%2Fpasswd");

        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing).path("message").asText()).isEqualTo("file not found: nothing-here.txt");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).path("error").asText()).isEqualTo("forbidden");
        assertThat(json(refused).path("message").asText()).isEqualTo("path escapes the workspace: ../../etc/passwd");
    }

    @Test
    void no_answer_in_time_is_504_saying_the_request_is_recorded() throws Exception {
        String session = session();
        host.mode(session, FakeOrchestratorAndWorker.Mode.SILENT);

        HttpResponse<byte[]> response = put(session, "late.txt", new byte[3]);

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(json(response).path("error").asText()).isEqualTo("gateway_timeout");
        assertThat(json(response).path("message").asText()).startsWith("no sandbox-worker answered within 3 s");
        assertThat(userToolInputs(session)).isEqualTo(1);
    }

    @Test
    void a_download_altered_on_its_way_is_not_handed_out() throws Exception {
        String session = session();
        put(session, "secret.txt", "api_key=abcdefghijklmnop".getBytes(StandardCharsets.UTF_8));
        host.mode(session, FakeOrchestratorAndWorker.Mode.ALTER_DOWNLOADS);

        HttpResponse<byte[]> response = get(session, "secret.txt");

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(json(response).path("message").asText()).startsWith("the file arrived altered");
    }

    @Test
    void without_the_token_the_answer_is_401() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/x/files/a"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(401);
    }
}
