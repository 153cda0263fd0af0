package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upload and download through the gateway and the real services: the file travels as a user-run tool call through
 * the log, lands in the workspace byte for byte, the agent can use it, and what the agent wrote comes back out.
 */
class FileTransferIT {
    @TempDir
    Path dataDir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void a_file_goes_in_the_agent_works_on_it_and_its_result_comes_out() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start();
             StandaloneStack stack = new StandaloneStack(dataDir, model, Map.of())) {
            GatewayClient gw = stack.gateway;
            String id = gw.createSession("transfer");
            byte[] binary = new byte[100_000];
            new Random(42).nextBytes(binary);

            HttpResponse<String> up = http.send(gw.request("/api/v1/sessions/" + id + "/files/in/data.bin")
                    .header("Content-Type", "application/octet-stream")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(binary)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
            assertThat(Files.readAllBytes(stack.workspace(id).resolve("in/data.bin"))).isEqualTo(binary);

            model.replyToolCall("shell", "{\"command\":\"wc -c < in/data.bin > out.txt\"}").replyText("Counted.");
            gw.postMessage(id, "count the bytes of in/data.bin into out.txt");
            gw.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));
            JsonNode lastRequest = model.lastRequest();
            assertThat(lastRequest.toString()).as("the model was told about the upload")
                    .contains("The user ran the tool upload");

            HttpResponse<byte[]> out = http.send(gw.request("/api/v1/sessions/" + id + "/files/out.txt").GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(out.statusCode()).isEqualTo(200);
            assertThat(new String(out.body()).trim()).isEqualTo("100000");

            HttpResponse<byte[]> back = http.send(gw.request("/api/v1/sessions/" + id + "/files/in/data.bin").GET()
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(back.body()).as("the upload comes back byte for byte").isEqualTo(binary);

            HttpResponse<String> missing = http.send(gw.request("/api/v1/sessions/" + id + "/files/nope.txt").GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(Json.mapper().readTree(missing.body()).get("message").asText()).isNotBlank();

            HttpResponse<String> escape = http.send(gw.request("/api/v1/sessions/" + id + "/files/..%2F..%2Fetc%2Fpasswd")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(escape.statusCode()).isBetween(400, 404);

            List<EventEnvelope> log = gw.log(id);
            assertThat(events(log, ToolCallRequested.class)).filteredOn(ToolCallRequested::byUser)
                    .extracting(ToolCallRequested::name).contains("upload", "download");
            assertThat(events(log, ToolCallCompleted.class)).hasSizeGreaterThanOrEqualTo(4);
        }
    }
}
