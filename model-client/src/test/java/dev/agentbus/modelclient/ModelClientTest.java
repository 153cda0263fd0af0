package dev.agentbus.modelclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;
import dev.agentbus.testkit.model.ScriptedUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client against a real HTTP server speaking the OpenAI protocol, streaming and not. */
class ModelClientTest {

    private static final List<ChatMessage> HELLO = List.of(
            new ChatMessage.System("You are terse."),
            new ChatMessage.User("Say hello."));
    private static final ToolDefinition READ_FILE = new ToolDefinition("read_file", "Reads a file from the workspace",
            "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}");

    private ScriptedModelServer server;
    private final List<ModelClient> clients = new ArrayList<>();

    /** Records the deltas a call passes on. */
    private static final class Deltas implements DeltaListener {
        final List<String> content = new ArrayList<>();
        final List<String> reasoning = new ArrayList<>();

        @Override
        public void onContent(String text) {
            content.add(text);
        }

        @Override
        public void onReasoning(String text) {
            reasoning.add(text);
        }

        String contentText() {
            return String.join("", content);
        }

        String reasoningText() {
            return String.join("", reasoning);
        }
    }

    @BeforeEach
    void start() {
        server = ScriptedModelServer.start("local-model");
    }

    @AfterEach
    void stop() {
        clients.forEach(ModelClient::close);
        server.close();
    }

    private ModelClient client(boolean stream) {
        return client(ModelSettings.of(server.baseUrl(), "local-model").withStream(stream));
    }

    private ModelClient client(ModelSettings settings) {
        ModelClient client = new ModelClient(settings);
        clients.add(client);
        return client;
    }

    // ---------------------------------------------------------------- answers

    @Test
    void streamed_text_arrives_as_several_deltas_and_as_one_reply() throws Exception {
        server.replyText("Hello, I am a scripted model.");
        Deltas deltas = new Deltas();

        ModelReply reply = client(true).complete(HELLO, List.of(), deltas);

        assertThat(reply.content()).isEqualTo("Hello, I am a scripted model.");
        assertThat(reply.toolCalls()).isEmpty();
        assertThat(reply.finishReason()).isEqualTo("stop");
        assertThat(reply.model()).isEqualTo("local-model");
        assertThat(reply.reasoning()).isEmpty();
        assertThat(deltas.content).hasSizeGreaterThan(3);
        assertThat(deltas.contentText()).isEqualTo(reply.content());
        assertThat(server.lastRequest().path("stream").asBoolean()).isTrue();
    }

    @Test
    void non_streamed_text_is_one_reply_and_one_delta() throws Exception {
        server.replyText("Hello, I am a scripted model.");
        Deltas deltas = new Deltas();

        ModelReply reply = client(false).complete(HELLO, List.of(), deltas);

        assertThat(reply.content()).isEqualTo("Hello, I am a scripted model.");
        assertThat(reply.finishReason()).isEqualTo("stop");
        assertThat(deltas.content).containsExactly("Hello, I am a scripted model.");
        assertThat(server.lastRequest().path("stream").asBoolean(false)).isFalse();
        assertThat(server.lastRequest().has("stream_options")).isFalse();
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void single_tool_call_is_reassembled(boolean stream) throws Exception {
        server.replyToolCall("read_file", "{\"path\":\"src/main/java/App.java\",\"maxLines\":200}");

        ModelReply reply = client(stream).complete(HELLO, List.of(READ_FILE), null);

        assertThat(reply.toolCalls()).containsExactly(
                new ToolCall("call_1", "read_file", "{\"path\":\"src/main/java/App.java\",\"maxLines\":200}"));
        assertThat(reply.hasToolCalls()).isTrue();
        assertThat(reply.finishReason()).isEqualTo("tool_calls");
        assertThat(reply.content()).isEmpty();
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void two_parallel_tool_calls_are_reassembled_in_order(boolean stream) throws Exception {
        server.replyToolCalls(List.of(
                ScriptedToolCall.of("read_file", "{\"path\":\"a.txt\"}"),
                ScriptedToolCall.of("run_shell", "{\"command\":\"grep -rn \\\"TODO\\\" src | head -50\"}")));

        ModelReply reply = client(stream).complete(HELLO, List.of(READ_FILE), null);

        assertThat(reply.toolCalls()).containsExactly(
                new ToolCall("call_1", "read_file", "{\"path\":\"a.txt\"}"),
                new ToolCall("call_2", "run_shell", "{\"command\":\"grep -rn \\\"TODO\\\" src | head -50\"}"));
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void empty_arguments_of_a_no_arg_tool_become_an_empty_object(boolean stream) throws Exception {
        server.replyToolCall("list_todos", "");

        ModelReply reply = client(stream).complete(HELLO, List.of(), null);

        assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_1", "list_todos", "{}"));
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void text_and_tool_call_in_one_reply(boolean stream) throws Exception {
        server.reply(ScriptedReply.text("Let me look.").withToolCalls(List.of(ScriptedToolCall.of("read_file", "{\"path\":\"x\"}"))));

        ModelReply reply = client(stream).complete(HELLO, List.of(READ_FILE), null);

        assertThat(reply.content()).isEqualTo("Let me look.");
        assertThat(reply.toolCalls()).extracting(ToolCall::name).containsExactly("read_file");
    }

    // ---------------------------------------------------------------- reasoning

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void reasoning_content_field_goes_to_reasoning(boolean stream) throws Exception {
        server.replyWithReasoning("The user wants a greeting. Keep it short.", "Hello!");
        Deltas deltas = new Deltas();

        ModelReply reply = client(stream).complete(HELLO, List.of(), deltas);

        assertThat(reply.reasoning()).isEqualTo("The user wants a greeting. Keep it short.");
        assertThat(reply.content()).isEqualTo("Hello!");
        assertThat(deltas.reasoningText()).isEqualTo("The user wants a greeting. Keep it short.");
        assertThat(deltas.contentText()).isEqualTo("Hello!");
        if (stream) {
            assertThat(deltas.reasoning).hasSizeGreaterThan(1);
        }
    }

    @Test
    void think_block_split_across_chunks_never_reaches_content_deltas() throws Exception {
        server.reply(ScriptedReply.textInChunks("<thi", "nk>\nThe user", " wants a greeting.\n</th", "ink>\n\nHel", "lo!"));
        Deltas deltas = new Deltas();

        ModelReply reply = client(true).complete(HELLO, List.of(), deltas);

        assertThat(reply.content()).isEqualTo("Hello!");
        assertThat(reply.reasoning()).isEqualTo("The user wants a greeting.");
        assertThat(deltas.contentText()).isEqualTo("Hello!");
        assertThat(deltas.content).noneMatch(piece -> piece.contains("<") || piece.contains("think") || piece.contains("user"));
        assertThat(deltas.reasoningText()).isEqualTo("The user wants a greeting.");
    }

    @ParameterizedTest(name = "chunk size {0}")
    @ValueSource(ints = {1, 2, 3, 5, 7, 11})
    void think_block_survives_any_chunk_size(int chunkSize) throws Exception {
        server.streamChunkSize(chunkSize).replyText("<think>Check the path first.</think>\n\nThe file is empty.");
        Deltas deltas = new Deltas();

        ModelReply reply = client(true).complete(HELLO, List.of(), deltas);

        assertThat(reply.content()).isEqualTo("The file is empty.");
        assertThat(reply.reasoning()).isEqualTo("Check the path first.");
        assertThat(deltas.contentText()).isEqualTo("The file is empty.");
    }

    @Test
    void think_block_in_a_non_streamed_reply_is_removed_from_the_content() throws Exception {
        server.replyText("<think>\nShort answer.\n</think>\n\nHello!");

        ModelReply reply = client(false).complete(HELLO, List.of(), null);

        assertThat(reply.content()).isEqualTo("Hello!");
        assertThat(reply.reasoning()).isEqualTo("Short answer.");
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void both_reasoning_forms_are_kept(boolean stream) throws Exception {
        server.reply(ScriptedReply.reasoningAndText("From the field.", "<think>From the tag.</think>Done."));

        ModelReply reply = client(stream).complete(HELLO, List.of(), null);

        assertThat(reply.reasoning()).isEqualTo("From the field.\nFrom the tag.");
        assertThat(reply.content()).isEqualTo("Done.");
    }

    // ---------------------------------------------------------------- usage and model

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void usage_is_taken_from_the_reply(boolean stream) throws Exception {
        server.reply(ScriptedReply.text("ok").withUsage(ScriptedUsage.of(1234, 56)));

        ModelReply reply = client(stream).complete(HELLO, List.of(), null);

        assertThat(reply.usage()).isEqualTo(new TokenCounts(1234, 56, 1290));
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void missing_usage_counts_as_zero(boolean stream) throws Exception {
        server.reply(ScriptedReply.text("ok").withUsage(ScriptedUsage.NONE));

        ModelReply reply = client(stream).complete(HELLO, List.of(), null);

        assertThat(reply.usage()).isEqualTo(TokenCounts.ZERO);
        assertThat(reply.content()).isEqualTo("ok");
    }

    @Test
    void blank_model_is_resolved_from_the_model_list_once() throws Exception {
        server.replyText("one").replyText("two");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), " "));

        assertThat(client.resolveModel()).isEqualTo("local-model");
        ModelReply first = client.complete(HELLO, List.of(), null);
        ModelReply second = client.complete(HELLO, List.of(), null);

        assertThat(server.requests()).extracting(r -> r.path("model").asText()).containsExactly("local-model", "local-model");
        assertThat(first.model()).isEqualTo("local-model");
        assertThat(second.content()).isEqualTo("two");
        assertThat(server.modelListRequestCount()).isEqualTo(1);
    }

    @Test
    void configured_model_is_used_without_listing() throws Exception {
        server.replyText("ok");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "other-model"));

        client.complete(HELLO, List.of(), null);

        assertThat(server.lastRequest().path("model").asText()).isEqualTo("other-model");
        assertThat(server.modelListRequestCount()).isZero();
    }

    @Test
    void a_calls_own_model_and_sampling_reach_the_server_without_listing_models() throws Exception {
        server.replyText("ok");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), ""));

        client.complete(new CallSettings("session-model", 1.1, 0.9, 321), HELLO, List.of(), null);

        JsonNode sent = server.lastRequest();
        assertThat(sent.path("model").asText()).isEqualTo("session-model");
        assertThat(sent.path("temperature").asDouble()).isEqualTo(1.1);
        assertThat(sent.path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(sent.path("max_tokens").asInt()).isEqualTo(321);
        assertThat(server.modelListRequestCount()).as("a named model needs no list").isZero();
    }

    // ---------------------------------------------------------------- failures

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void a_500_is_retried_and_the_next_answer_used(boolean stream) throws Exception {
        server.failNext(500, "{\"error\":{\"message\":\"model crashed\"}}").replyText("recovered");

        ModelReply reply = client(ModelSettings.of(server.baseUrl(), "local-model").withStream(stream).withMaxRetries(2))
                .complete(HELLO, List.of(), null);

        assertThat(reply.content()).isEqualTo("recovered");
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void a_5xx_that_persists_fails_with_the_status_and_the_servers_words() {
        server.failNext(503, "{\"error\":{\"message\":\"model is loading\",\"type\":\"server_error\"}}")
                .failNext(503, "{\"error\":{\"message\":\"model is loading\",\"type\":\"server_error\"}}");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model").withMaxRetries(1));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining(server.baseUrl())
                .hasMessageContaining("HTTP 503")
                .hasMessageContaining("model is loading")
                .satisfies(e -> assertThat(((ModelCallException) e).httpStatus()).hasValue(503));
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void a_4xx_is_not_retried() {
        server.failNext(400, "{\"error\":{\"message\":\"tools are not supported by this model\"}}");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model").withMaxRetries(2));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(READ_FILE), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("HTTP 400")
                .hasMessageContaining("tools are not supported by this model");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_plain_text_error_body_gives_the_status_and_the_text() {
        // A proxy in front of the model server answers in plain text: its words are quoted as they are.
        server.failNext(502, "Bad gateway: upstream llama.cpp died");
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model").withMaxRetries(0));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessage("model server at " + server.baseUrl() + " answered the chat completion with HTTP 502: "
                        + "Bad gateway: upstream llama.cpp died");
    }

    @Test
    void an_exhausted_script_shows_up_as_a_clear_failure() {
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model").withMaxRetries(0));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("script exhausted");
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void server_down_gives_a_clear_message(boolean stream) {
        String deadUrl;
        try (ScriptedModelServer gone = ScriptedModelServer.start()) {
            deadUrl = gone.baseUrl();
        }
        ModelClient client = client(ModelSettings.of(deadUrl, "local-model").withStream(stream).withMaxRetries(1));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("model server at " + deadUrl + " did not answer")
                .hasMessageContaining("connection refused")
                .satisfies(e -> assertThat(((ModelCallException) e).httpStatus()).isEmpty());
    }

    @Test
    void server_down_while_resolving_the_model_gives_a_clear_message() {
        String deadUrl;
        try (ScriptedModelServer gone = ScriptedModelServer.start()) {
            deadUrl = gone.baseUrl();
        }
        ModelClient client = client(ModelSettings.of(deadUrl, "").withMaxRetries(0));

        assertThatThrownBy(client::resolveModel)
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("did not answer the listing models")
                .hasMessageContaining("connection refused");
    }

    @Test
    void a_reply_slower_than_the_timeout_fails_with_the_timeout_named() {
        server.reply(ScriptedReply.text("too late").withDelay(Duration.ofSeconds(3)));
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model")
                .withTimeout(Duration.ofMillis(300)).withMaxRetries(0));

        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("did not answer")
                .hasMessageContaining("PT0.3S");
    }

    @Test
    void a_stream_that_stalls_after_its_first_token_fails_with_the_timeout_named() {
        server.reply(ScriptedReply.textInChunks("fast ", "then ", "nothing").withChunkDelay(Duration.ofSeconds(3)));
        ModelClient client = client(ModelSettings.of(server.baseUrl(), "local-model")
                .withTimeout(Duration.ofMillis(500)).withMaxRetries(0));

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.complete(HELLO, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("did not answer")
                .hasMessageContaining("no complete answer within PT0.5S");
        // the limit covers reading the stream to its end, not only the wait for its first byte
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    // ---------------------------------------------------------------- request shape

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {true, false})
    void request_carries_history_and_tools_in_openai_shape(boolean stream) throws Exception {
        server.replyText("done");
        List<ChatMessage> history = List.of(
                new ChatMessage.System("You are an agent."),
                new ChatMessage.User("Read a.txt and b.txt"),
                new ChatMessage.Assistant("", List.of(
                        new ToolCall("call_a", "read_file", "{\"path\":\"a.txt\"}"),
                        new ToolCall("call_b", "read_file", "{\"path\":\"b.txt\"}"))),
                new ChatMessage.ToolResult("call_a", "contents of a"),
                new ChatMessage.ToolResult("call_b", "contents of b"),
                new ChatMessage.Assistant("Both read.", List.of()),
                new ChatMessage.User("Thanks"));
        ModelClient client = client(new ModelSettings(server.baseUrl(), "local-model", "sk-test", 0.3, 512,
                Duration.ofSeconds(30), 0, stream));

        client.complete(history, List.of(READ_FILE, new ToolDefinition("list_todos", "Lists open todos", "")), null);

        JsonNode request = server.lastRequest();
        assertThat(request.path("model").asText()).isEqualTo("local-model");
        assertThat(request.path("temperature").asDouble()).isEqualTo(0.3);
        assertThat(request.path("max_tokens").asInt()).isEqualTo(512);
        assertThat(request.path("stream").asBoolean(false)).isEqualTo(stream);
        assertThat(request.path("stream_options").path("include_usage").asBoolean(false)).isEqualTo(stream);

        JsonNode messages = request.path("messages");
        assertThat(messages).hasSize(7);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("You are an agent.");
        assertThat(messages.get(1).path("role").asText()).isEqualTo("user");
        JsonNode assistant = messages.get(2);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        assertThat(assistant.has("content")).as("a tool-call-only answer has no content").isFalse();
        assertThat(assistant.path("tool_calls")).hasSize(2);
        JsonNode firstCall = assistant.path("tool_calls").get(0);
        assertThat(firstCall.path("id").asText()).isEqualTo("call_a");
        assertThat(firstCall.path("type").asText()).isEqualTo("function");
        assertThat(firstCall.path("function").path("name").asText()).isEqualTo("read_file");
        assertThat(firstCall.path("function").path("arguments").asText()).isEqualTo("{\"path\":\"a.txt\"}");
        assertThat(messages.get(3).path("role").asText()).isEqualTo("tool");
        assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_a");
        assertThat(messages.get(3).path("content").asText()).isEqualTo("contents of a");
        assertThat(messages.get(4).path("tool_call_id").asText()).isEqualTo("call_b");
        assertThat(messages.get(5).path("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(5).path("content").asText()).isEqualTo("Both read.");
        assertThat(messages.get(5).has("tool_calls")).isFalse();
        assertThat(messages.get(6).path("content").asText()).isEqualTo("Thanks");

        JsonNode tools = request.path("tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).path("type").asText()).isEqualTo("function");
        JsonNode function = tools.get(0).path("function");
        assertThat(function.path("name").asText()).isEqualTo("read_file");
        assertThat(function.path("description").asText()).isEqualTo("Reads a file from the workspace");
        assertThat(function.path("parameters").isObject()).as("schema is sent as an object, not a string").isTrue();
        assertThat(function.path("parameters").path("properties").path("path").path("type").asText()).isEqualTo("string");
        assertThat(function.path("parameters").path("required").get(0).asText()).isEqualTo("path");
        assertThat(tools.get(1).path("function").path("parameters").path("type").asText()).isEqualTo("object");
    }

    @Test
    void no_tools_means_no_tools_field() throws Exception {
        server.replyText("ok");

        client(true).complete(HELLO, List.of(), null);

        assertThat(server.lastRequest().has("tools")).isFalse();
        assertThat(server.lastRequest().has("max_tokens")).as("0 means the server's default").isFalse();
    }

    @Test
    void an_invalid_tool_schema_is_rejected_before_calling() {
        ModelClient client = client(true);

        assertThatThrownBy(() -> client.complete(HELLO, List.of(new ToolDefinition("bad", "", "{not json")), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool 'bad'");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void the_api_key_never_appears_in_settings_text() {
        ModelSettings settings = ModelSettings.of(server.baseUrl(), "m").withApiKey("sk-secret-123");

        assertThat(settings.toString()).doesNotContain("sk-secret-123").contains("apiKey=<set>");
    }
}
