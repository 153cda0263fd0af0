package dev.agentbus.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Drives the server with the JDK's own HTTP client, as a process outside this JVM would. */
class ScriptedModelServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private ScriptedModelServer server;

    @BeforeEach
    void start() {
        server = ScriptedModelServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void base_url_is_loopback_with_v1_path() {
        assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port() + "/v1");
    }

    @Test
    void lists_the_configured_model() throws Exception {
        try (ScriptedModelServer named = ScriptedModelServer.start("qwen3-8b")) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(named.baseUrl() + "/models")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.path("object").asText()).isEqualTo("list");
            assertThat(body.path("data").get(0).path("id").asText()).isEqualTo("qwen3-8b");
            assertThat(body.path("data").get(0).path("object").asText()).isEqualTo("model");
            assertThat(named.modelListRequestCount()).isEqualTo(1);
        }
    }

    @Test
    void non_streaming_text_reply_is_one_chat_completion_with_usage() throws Exception {
        server.replyText("Hello there");

        HttpResponse<String> response = post(request(false, "hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).contains("application/json"));
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("id").asText()).startsWith("chatcmpl-");
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("created").asLong()).isPositive();
        assertThat(body.path("model").asText()).isEqualTo("scripted-model");
        JsonNode choice = body.path("choices").get(0);
        assertThat(choice.path("index").asInt()).isZero();
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("message").path("content").asText()).isEqualTo("Hello there");
        assertThat(body.path("usage").path("prompt_tokens").asLong()).isPositive();
        assertThat(body.path("usage").path("completion_tokens").asLong()).isPositive();
        assertThat(body.path("usage").path("total_tokens").asLong())
                .isEqualTo(body.path("usage").path("prompt_tokens").asLong() + body.path("usage").path("completion_tokens").asLong());
    }

    @Test
    void a_conversation_marked_in_its_first_user_message_gets_its_own_replies_whatever_the_order_of_asking()
            throws Exception {
        server.conversation("[A]").replyText("a1").replyText("a2");
        server.conversation("[B]").replyText("b1");
        server.replyText("unmarked");

        // B asks before A, and an unmarked conversation in between: each still gets its own next reply
        assertThat(content(post(request(false, "task [B]")))).isEqualTo("b1");
        assertThat(content(post(request(false, "no mark")))).isEqualTo("unmarked");
        assertThat(content(post(request(false, "task [A]")))).isEqualTo("a1");
        assertThat(content(post(request(false, "task [A]")))).isEqualTo("a2");
        HttpResponse<String> exhausted = post(request(false, "task [B]"));

        assertThat(exhausted.statusCode()).as("B's own script is used up; the main one is not consulted").isEqualTo(500);
        assertThat(server.conversation("[A]").requestCount()).isEqualTo(2);
        assertThat(server.conversation("[B]").requestCount()).isEqualTo(2);
        assertThat(server.conversation("[A]").remaining()).isZero();
        assertThat(server.requestCount()).isEqualTo(5);
    }

    @Test
    void a_conversation_answering_by_history_answers_a_request_asked_again_the_same() throws Exception {
        server.conversation("[R]").sameAnswerWhenAskedAgain().replyText("first").replyText("second");

        String opening = request(false, "task [R]");
        assertThat(content(post(opening))).isEqualTo("first");
        // The same history again (a model call made again after a crash): the same answer, not the next one.
        assertThat(content(post(opening))).isEqualTo("first");
        var later = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(opening);
        ((com.fasterxml.jackson.databind.node.ArrayNode) later.get("messages")).addObject()
                .put("role", "assistant").put("content", "first");
        ((com.fasterxml.jackson.databind.node.ArrayNode) later.get("messages")).addObject()
                .put("role", "user").put("content", "go on");
        assertThat(content(post(JSON.writeValueAsString(later)))).isEqualTo("second");

        assertThat(server.conversation("[R]").requestCount()).isEqualTo(3);
        assertThat(server.conversation("[R]").remaining()).isZero();
    }

    private static String content(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body()).path("choices").get(0).path("message").path("content").asText();
    }

    @Test
    void a_reset_forgets_the_unused_script_and_the_recorded_requests() throws Exception {
        server.replyText("first").replyText("left over");
        assertThat(post(request(false, "hi")).statusCode()).isEqualTo(200);
        assertThat(server.awaitAnswered(1, java.time.Duration.ofSeconds(5))).isTrue();

        server.reset();
        server.replyText("after the reset");
        HttpResponse<String> response = post(request(false, "hi again"));

        assertThat(JSON.readTree(response.body()).path("choices").get(0).path("message").path("content").asText())
                .isEqualTo("after the reset");
        assertThat(server.requestCount()).isEqualTo(1);
        assertThat(server.remainingSteps()).isZero();
        assertThat(server.awaitAnswered(1, java.time.Duration.ofSeconds(5))).isTrue();
        assertThat(server.awaitAnswered(2, java.time.Duration.ofMillis(50))).as("only one answer since the reset")
                .isFalse();
    }

    @Test
    void streaming_text_reply_arrives_in_several_deltas_then_usage_then_done() throws Exception {
        server.replyText("Hello from the scripted model");

        HttpResponse<String> response = post(request(true, "hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        Sse sse = Sse.parse(response.body());
        assertThat(sse.done).isTrue();
        List<JsonNode> withChoices = sse.chunks.stream().filter(c -> !c.path("choices").isEmpty()).toList();
        assertThat(withChoices.getFirst().path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
        List<String> pieces = withChoices.stream()
                .map(c -> c.path("choices").get(0).path("delta").path("content"))
                .filter(n -> n.isTextual() && !n.asText().isEmpty())
                .map(JsonNode::asText)
                .toList();
        assertThat(pieces).hasSizeGreaterThan(3);
        assertThat(String.join("", pieces)).isEqualTo("Hello from the scripted model");
        assertThat(sse.chunks).allSatisfy(c -> {
            assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.path("id").asText()).isEqualTo(sse.chunks.getFirst().path("id").asText());
        });
        assertThat(withChoices.getLast().path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        JsonNode last = sse.chunks.getLast();
        assertThat(last.path("choices")).isEmpty();
        assertThat(last.path("usage").path("total_tokens").asLong()).isPositive();
    }

    @Test
    void streamed_tool_call_chunks_reassemble_into_the_scripted_calls() throws Exception {
        server.replyToolCalls(List.of(
                ScriptedToolCall.of("read_file", "{\"path\":\"README.md\"}"),
                ScriptedToolCall.of("run_shell", "{\"command\":\"ls -la /workspace\"}")));

        Sse sse = Sse.parse(post(request(true, "go")).body());

        Map<Integer, String[]> calls = new LinkedHashMap<>(); // index -> {id, name, arguments}
        String finish = null;
        for (JsonNode chunk : sse.chunks) {
            for (JsonNode choice : chunk.path("choices")) {
                for (JsonNode delta : choice.path("delta").path("tool_calls")) {
                    String[] call = calls.computeIfAbsent(delta.path("index").asInt(), i -> new String[] {null, null, ""});
                    if (delta.has("id")) {
                        call[0] = delta.path("id").asText();
                    }
                    if (delta.path("function").has("name")) {
                        call[1] = delta.path("function").path("name").asText();
                    }
                    call[2] += delta.path("function").path("arguments").asText("");
                }
                if (choice.hasNonNull("finish_reason")) {
                    finish = choice.path("finish_reason").asText();
                }
            }
        }
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0)).containsExactly("call_1", "read_file", "{\"path\":\"README.md\"}");
        assertThat(calls.get(1)).containsExactly("call_2", "run_shell", "{\"command\":\"ls -la /workspace\"}");
        assertThat(finish).isEqualTo("tool_calls");
        long argumentDeltas = sse.chunks.stream()
                .flatMap(c -> stream(c.path("choices")))
                .flatMap(ch -> stream(ch.path("delta").path("tool_calls")))
                .filter(tc -> !tc.has("id"))
                .count();
        assertThat(argumentDeltas).as("arguments are streamed in pieces").isGreaterThan(4);
    }

    @Test
    void non_streaming_tool_call_reply_has_tool_calls_and_null_content() throws Exception {
        server.replyToolCall("list_files", "");

        JsonNode body = JSON.readTree(post(request(false, "go")).body());

        JsonNode choice = body.path("choices").get(0);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(choice.path("message").path("content").isNull()).isTrue();
        JsonNode call = choice.path("message").path("tool_calls").get(0);
        assertThat(call.path("id").asText()).isEqualTo("call_1");
        assertThat(call.path("type").asText()).isEqualTo("function");
        assertThat(call.path("function").path("name").asText()).isEqualTo("list_files");
        assertThat(call.path("function").path("arguments").asText()).isEmpty();
    }

    @Test
    void reasoning_is_sent_as_reasoning_content_streaming_and_not() throws Exception {
        server.replyWithReasoning("Think first.", "Answer.").replyWithReasoning("Think first.", "Answer.");

        JsonNode message = JSON.readTree(post(request(false, "q")).body()).path("choices").get(0).path("message");
        assertThat(message.path("reasoning_content").asText()).isEqualTo("Think first.");
        assertThat(message.path("content").asText()).isEqualTo("Answer.");

        Sse sse = Sse.parse(post(request(true, "q")).body());
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        for (JsonNode chunk : sse.chunks) {
            for (JsonNode choice : chunk.path("choices")) {
                reasoning.append(choice.path("delta").path("reasoning_content").asText(""));
                content.append(choice.path("delta").path("content").asText(""));
            }
        }
        assertThat(reasoning).hasToString("Think first.");
        assertThat(content).hasToString("Answer.");
    }

    @Test
    void explicit_chunks_are_streamed_exactly() throws Exception {
        server.reply(ScriptedReply.textInChunks("<thi", "nk>hm</th", "ink>ok"));

        Sse sse = Sse.parse(post(request(true, "q")).body());

        List<String> pieces = sse.chunks.stream()
                .flatMap(c -> stream(c.path("choices")))
                .map(ch -> ch.path("delta").path("content").asText(""))
                .filter(s -> !s.isEmpty())
                .toList();
        assertThat(pieces).containsExactly("<thi", "nk>hm</th", "ink>ok");
    }

    @Test
    void configured_usage_is_reported() throws Exception {
        server.reply(ScriptedReply.text("x").withUsage(ScriptedUsage.of(120, 7)));

        JsonNode usage = JSON.readTree(post(request(false, "q")).body()).path("usage");

        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(120);
        assertThat(usage.path("completion_tokens").asLong()).isEqualTo(7);
        assertThat(usage.path("total_tokens").asLong()).isEqualTo(127);
    }

    @Test
    void usage_can_be_left_out_entirely() throws Exception {
        server.reply(ScriptedReply.text("x").withUsage(ScriptedUsage.NONE))
                .reply(ScriptedReply.text("y").withUsage(ScriptedUsage.NONE));

        JsonNode whole = JSON.readTree(post(request(false, "q")).body());
        Sse streamed = Sse.parse(post(request(true, "q")).body());

        assertThat(whole.has("usage")).isFalse();
        assertThat(streamed.chunks).noneMatch(c -> c.has("usage"));
        assertThat(streamed.done).isTrue();
    }

    @Test
    void exhausted_script_answers_500_with_a_json_error() throws Exception {
        HttpResponse<String> response = post(request(false, "anyone?"));

        assertThat(response.statusCode()).isEqualTo(500);
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertThat(error.path("message").asText()).contains("script exhausted");
        assertThat(error.path("code").asText()).isEqualTo("script_exhausted");
    }

    @Test
    void failures_are_injected_in_script_order() throws Exception {
        server.failNext(503, "{\"error\":{\"message\":\"overloaded\"}}").replyText("ok");

        HttpResponse<String> first = post(request(false, "q"));
        HttpResponse<String> second = post(request(false, "q"));

        assertThat(first.statusCode()).isEqualTo(503);
        assertThat(first.body()).contains("overloaded");
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(server.remainingSteps()).isZero();
    }

    @Test
    void raw_steps_are_sent_verbatim() throws Exception {
        server.replyRaw("{\"odd\":true}").replyRawStream(List.of("{\"a\":1}", "{\"b\":2}"));

        HttpResponse<String> whole = post(request(true, "q")); // raw JSON even though a stream was asked for
        HttpResponse<String> streamed = post(request(false, "q"));

        assertThat(whole.body()).isEqualTo("{\"odd\":true}");
        assertThat(streamed.body()).isEqualTo("data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n");
    }

    @Test
    void delayed_reply_waits_before_answering() throws Exception {
        server.reply(ScriptedReply.text("late").withDelay(Duration.ofMillis(300)));

        long start = System.nanoTime();
        HttpResponse<String> response = post(request(false, "q"));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void every_request_body_is_recorded_in_order() throws Exception {
        server.replyText("a").replyText("b");

        post(request(false, "first"));
        post(request(true, "second"));
        post(request(false, "third")); // exhausted, still recorded

        assertThat(server.requestCount()).isEqualTo(3);
        assertThat(server.requests()).extracting(r -> r.path("messages").get(0).path("content").asText())
                .containsExactly("first", "second", "third");
        assertThat(server.lastRequest().path("stream").asBoolean()).isFalse();
        assertThat(server.requests().get(1).path("stream").asBoolean()).isTrue();
    }

    @Test
    void malformed_request_is_rejected_without_consuming_the_script() throws Exception {
        server.replyText("kept");

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString("not json")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(server.remainingSteps()).isEqualTo(1);
        assertThat(server.requests().getFirst().asText()).isEqualTo("not json");
    }

    @Test
    void concurrent_callers_each_get_exactly_one_scripted_reply() throws Exception {
        int callers = 20;
        for (int i = 0; i < callers; i++) {
            server.reply(ScriptedReply.text("reply-" + i).withDelay(Duration.ofMillis(50)));
        }
        Map<String, Boolean> seen = new ConcurrentHashMap<>();
        List<Future<?>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    JsonNode body = JSON.readTree(post(request(false, "q")).body());
                    seen.put(body.path("choices").get(0).path("message").path("content").asText(), true);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }
        assertThat(seen).hasSize(callers);
        assertThat(server.requestCount()).isEqualTo(callers);
        assertThat(server.awaitRequestCount(callers, Duration.ofMillis(10))).isTrue();
    }

    // ---------------------------------------------------------------- helpers

    private static String request(boolean stream, String userText) throws IOException {
        var root = JSON.createObjectNode().put("model", "scripted-model").put("stream", stream);
        root.putArray("messages").addObject().put("role", "user").put("content", userText);
        return JSON.writeValueAsString(root);
    }

    private HttpResponse<String> post(String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
        List<JsonNode> list = new ArrayList<>();
        array.forEach(list::add);
        return list.stream();
    }

    /** A minimal reading of an SSE body, enough to check the server's output in a test. */
    private record Sse(List<JsonNode> chunks, boolean done) {
        static Sse parse(String body) throws IOException {
            List<JsonNode> chunks = new ArrayList<>();
            boolean done = false;
            for (String event : body.split("\n\n")) {
                if (event.isBlank()) {
                    continue;
                }
                assertThat(event).startsWith("data: ");
                String data = event.substring("data: ".length());
                if (data.equals("[DONE]")) {
                    done = true;
                } else {
                    assertThat(done).as("nothing after [DONE]").isFalse();
                    chunks.add(JSON.readTree(data));
                }
            }
            return new Sse(chunks, done);
        }
    }
}
