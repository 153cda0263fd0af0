package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallRefused;
import dev.agentbus.events.session.SessionEvent.ModelWarned;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.WindowStyle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Images, reasoning controls and tool calls written as text, end to end through the broker with the scripted model
 * server checking what each call sent. The server says (as LM Studio does) that its model takes images; the
 * installation names other models that do ({@code agentbus.models.vision}) and that do not
 * ({@code agentbus.models.no-vision}).
 */
class VisionAndReasoningIT {
    static final Duration WAIT = Duration.ofSeconds(60);
    /** The smallest valid PNG: one transparent pixel. */
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start().tellCapabilities(WindowStyle.LM_STUDIO, true, true);
        stack = new StandaloneStack(dataDir, model, Map.of(
                "agentbus.models.vision", "declared-*",
                "agentbus.models.no-vision", "blind-model"));
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void an_image_in_the_workspace_reaches_a_vision_model_as_an_image_url_part_and_never_enters_the_log()
            throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("look at this");
        Files.createDirectories(stack.workspace(id).resolve("pics"));
        Files.write(stack.workspace(id).resolve("pics/dot.png"), PNG);
        model.replyText("A single transparent pixel.");
        int before = model.requestCount();

        postMessage(gw, id, "what is in this picture?", "pics/dot.png");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, TurnEnded.class).getLast().outcome()).isEqualTo(TurnOutcome.COMPLETED);
        JsonNode user = lastUserMessage(model.requests().get(before));
        assertThat(user.get("content").isArray()).as("content parts: %s", user).isTrue();
        assertThat(user.at("/content/0/type").asText()).isEqualTo("text");
        assertThat(user.at("/content/0/text").asText()).isEqualTo("what is in this picture?");
        assertThat(user.at("/content/1/type").asText()).isEqualTo("image_url");
        assertThat(user.at("/content/1/image_url/url").asText())
                .isEqualTo("data:image/png;base64," + Base64.getEncoder().encodeToString(PNG));
        assertThat(events(log, UserMessagePosted.class).getLast().images()).containsExactly("pics/dot.png");
        assertThat(gw.get("/api/v1/sessions/" + id + "/log").body()).as("the log names the image, never holds it")
                .doesNotContain(Base64.getEncoder().encodeToString(PNG));
    }

    @Test
    void an_uploaded_image_goes_with_the_next_message_and_again_with_later_calls_of_the_conversation()
            throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("upload");
        GatewayClient.Response up = gw.send(gw.request("/api/v1/sessions/" + id + "/files/uploads/shot.png")
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(PNG)).build());
        assertThat(up.status()).as(up.body()).isEqualTo(200);
        model.replyToolCall("ls", "{\"path\":\".\"}").replyText("Seen it.");
        int before = model.requestCount();

        postMessage(gw, id, "describe it", "uploads/shot.png");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        for (JsonNode sent : model.requests().subList(before, before + 2)) {
            assertThat(lastUserMessage(sent).at("/content/1/image_url/url").asText())
                    .startsWith("data:image/png;base64,");
        }
    }

    @Test
    void a_model_the_installation_declares_a_vision_model_gets_the_image() throws Exception {
        GatewayClient gw = stack.gateway;
        String id = sessionWithModel(gw, "declared-vision-7b");
        Files.createDirectories(stack.workspace(id));
        Files.write(stack.workspace(id).resolve("a.png"), PNG);
        model.replyText("ok");
        int before = model.requestCount();

        postMessage(gw, id, "and this?", "a.png");
        gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        JsonNode sent = model.requests().get(before);
        assertThat(sent.get("model").asText()).isEqualTo("declared-vision-7b");
        assertThat(lastUserMessage(sent).at("/content/1/type").asText()).isEqualTo("image_url");
    }

    @Test
    void a_model_without_vision_gets_a_recorded_refusal_and_no_call() throws Exception {
        GatewayClient gw = stack.gateway;
        for (String name : List.of("blind-model", "mystery-model")) {
            String id = sessionWithModel(gw, name);
            Files.createDirectories(stack.workspace(id));
        Files.write(stack.workspace(id).resolve("a.png"), PNG);
            int before = model.requestCount();

            postMessage(gw, id, "what do you see?", "a.png");
            List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

            ModelCallRefused refused = events(log, ModelCallRefused.class).getFirst();
            assertThat(refused.model()).isEqualTo(name);
            assertThat(refused.reason()).contains(name).contains(name.equals("blind-model")
                    ? "agentbus.models.no-vision" : "agentbus.models.vision");
            TurnEnded ended = events(log, TurnEnded.class).getLast();
            assertThat(ended.outcome()).isEqualTo(TurnOutcome.ERROR);
            assertThat(ended.message()).isEqualTo(refused.reason());
            assertThat(model.requestCount()).as("the server was never asked").isEqualTo(before);
        }
    }

    @Test
    void a_missing_image_is_refused_with_the_workers_reason_and_a_bad_list_is_a_400() throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("missing");
        int before = model.requestCount();

        postMessage(gw, id, "look", "nowhere.png");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        assertThat(events(log, ModelCallRefused.class).getFirst().reason())
                .contains("nowhere.png").contains("no such file");
        assertThat(model.requestCount()).isEqualTo(before);
        GatewayClient.Response bad = gw.post("/api/v1/sessions/" + id + "/messages",
                "{\"text\":\"x\",\"images\":[\"\"]}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("message").asText()).contains("image path is empty");
    }

    @Test
    void reasoning_effort_and_thinking_budget_reach_the_server_and_a_hot_thinking_model_is_warned_once()
            throws Exception {
        GatewayClient gw = stack.gateway;
        GatewayClient.Response created = gw.post("/api/v1/sessions", """
                {"title":"think","sampling":{"temperature":1.4,"reasoningEffort":"high","thinkingBudget":2048}}""");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String id = created.json().get("id").asText();
        model.replyToolCall("ls", "{\"path\":\".\"}").replyText("Thought hard.");
        int before = model.requestCount();

        gw.postMessage(id, "think about it");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        JsonNode sent = model.requests().get(before);
        assertThat(sent.get("reasoning_effort").asText()).isEqualTo("high");
        assertThat(sent.get("max_thinking_tokens").asInt()).isEqualTo(2048);
        assertThat(sent.get("temperature").asDouble()).isEqualTo(1.4);
        assertThat(events(log, ModelWarned.class)).as("once, though two calls ran hot").singleElement()
                .satisfies(w -> assertThat(w.temperature()).isEqualTo(1.4));
        JsonNode view = gw.get("/api/v1/sessions/" + id).json();
        assertThat(view.at("/model/chosen/reasoningEffort").asText()).isEqualTo("high");
        assertThat(view.at("/model/chosen/thinkingBudget").asInt()).isEqualTo(2048);
        GatewayClient.Response bad = gw.post("/api/v1/sessions", "{\"sampling\":{\"reasoningEffort\":\"max\"}}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("message").asText()).contains("low, medium or high");
    }

    @Test
    void a_tool_call_written_as_text_runs_and_the_log_holds_the_parsed_call() throws Exception {
        GatewayClient gw = stack.gateway;
        String id = gw.createSession("text calls");
        Files.createDirectories(stack.workspace(id));
        Files.writeString(stack.workspace(id).resolve("notes.txt"), "remember the milk\n");
        model.replyText("Let me read it.\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"notes.txt\"}}"
                + "\n</tool_call>").replyText("It says: remember the milk.");

        gw.postMessage(id, "what is in notes.txt?");
        List<EventEnvelope> log = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);

        ModelCallCompleted first = events(log, ModelCallCompleted.class).getFirst();
        assertThat(first.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("read");
            assertThat(c.arguments()).contains("notes.txt");
        });
        assertThat(first.content()).isEqualTo("Let me read it.");
        assertThat(events(log, ToolCallCompleted.class).getFirst().output()).contains("remember the milk");
        assertThat(events(log, TurnEnded.class).getLast().answer()).isEqualTo("It says: remember the milk.");
    }

    private static String sessionWithModel(GatewayClient gw, String name) {
        GatewayClient.Response created = gw.post("/api/v1/sessions",
                "{\"title\":\"" + name + "\",\"model\":\"" + name + "\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().get("id").asText();
    }

    private static void postMessage(GatewayClient gw, String id, String text, String image) {
        GatewayClient.Response r = gw.post("/api/v1/sessions/" + id + "/messages",
                "{\"text\":\"" + text + "\",\"images\":[\"" + image + "\"]}");
        assertThat(r.status()).as(r.body()).isEqualTo(202);
    }

    private static JsonNode lastUserMessage(JsonNode request) {
        JsonNode last = null;
        for (JsonNode m : request.get("messages")) {
            if (m.get("role").asText().equals("user") && !m.path("content").asText("").startsWith("[agentbus]")) {
                last = m;
            }
        }
        return last;
    }
}
