package dev.agentbus.modelclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentbus.testkit.model.ScriptedModelServer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replies shaped the way real OpenAI-compatible servers bend the protocol, sent byte for byte, to pin
 * that the client still makes sense of them.
 */
class ServerQuirksTest {

    private static final List<ChatMessage> ASK = List.of(new ChatMessage.User("Read a and b"));

    private ScriptedModelServer server;
    private ModelClient streaming;
    private ModelClient whole;

    @BeforeEach
    void start() {
        server = ScriptedModelServer.start("local-model");
        ModelSettings settings = ModelSettings.of(server.baseUrl(), "local-model").withMaxRetries(0);
        streaming = new ModelClient(settings.withStream(true));
        whole = new ModelClient(settings.withStream(false));
    }

    @AfterEach
    void stop() {
        streaming.close();
        whole.close();
        server.close();
    }

    @Test
    void tool_calls_without_type_or_id_and_with_object_arguments_are_read() throws Exception {
        server.replyRaw("""
                {"id":"x","object":"chat.completion","created":1,"model":"local-model",
                 "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
                   "tool_calls":[
                     {"function":{"name":"read_file","arguments":{"path":"a.txt"}}},
                     {"id":"abc","function":{"name":"list_todos","arguments":""}}]}}]}
                """);

        ModelReply reply = whole.complete(ASK, List.of(), null);

        assertThat(reply.toolCalls()).hasSize(2);
        ToolCall first = reply.toolCalls().getFirst();
        assertThat(first.id()).startsWith("call_").hasSizeGreaterThan(10);
        assertThat(first.name()).isEqualTo("read_file");
        assertThat(first.argumentsJson()).isEqualTo("{\"path\":\"a.txt\"}");
        assertThat(reply.toolCalls().get(1)).isEqualTo(new ToolCall("abc", "list_todos", "{}"));
        assertThat(reply.usage()).isEqualTo(TokenCounts.ZERO);
    }

    @Test
    void parallel_calls_that_all_claim_index_0_stay_apart_and_reasoning_field_is_read() throws Exception {
        // Gemini's compatibility layer numbers every call 0; Ollama names the reasoning field "reasoning"
        // and says "stop" even with tool calls; none of these chunks has id, created or model.
        server.replyRawStream(List.of(
                """
                {"choices":[{"index":0,"delta":{"role":"assistant","reasoning":"Need both "}}]}""",
                """
                {"choices":[{"index":0,"delta":{"reasoning":"files."}}]}""",
                """
                {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"g1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}}]}}]}""",
                """
                {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"g2","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"b\\"}"}}]}}]}""",
                """
                {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"""));

        ModelReply reply = streaming.complete(ASK, List.of(), null);

        assertThat(reply.reasoning()).isEqualTo("Need both files.");
        assertThat(reply.toolCalls()).containsExactly(
                new ToolCall("g1", "read_file", "{\"path\":\"a\"}"),
                new ToolCall("g2", "read_file", "{\"path\":\"b\"}"));
        assertThat(reply.hasToolCalls()).isTrue();
        assertThat(reply.finishReason()).isEqualTo("stop");
        assertThat(reply.model()).isEqualTo("local-model");
        assertThat(reply.usage()).isEqualTo(TokenCounts.ZERO);
    }

    @Test
    void streamed_call_without_id_or_index_is_continued_and_given_an_id() throws Exception {
        server.replyRawStream(List.of(
                """
                {"id":"c","object":"chat.completion.chunk","created":1,"model":"local-model","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"run_shell","arguments":"{\\"comm"}}]}}]}""",
                """
                {"id":"c","object":"chat.completion.chunk","created":1,"model":"local-model","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"and\\":\\"ls\\"}"}}]}}]}""",
                """
                {"id":"c","object":"chat.completion.chunk","created":1,"model":"local-model","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":4}}"""));

        ModelReply reply = streaming.complete(ASK, List.of(), null);

        assertThat(reply.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("run_shell");
            assertThat(call.argumentsJson()).isEqualTo("{\"command\":\"ls\"}");
            assertThat(call.id()).startsWith("call_");
        });
        assertThat(reply.usage()).as("total missing: computed").isEqualTo(new TokenCounts(9, 4, 13));
    }

    @Test
    void an_error_event_in_the_stream_fails_the_call_with_the_servers_words() {
        server.replyRawStream(List.of(
                """
                {"choices":[{"index":0,"delta":{"content":"Hel"}}]}""",
                """
                {"error":{"message":"context length exceeded","type":"invalid_request_error"}}"""));

        assertThatThrownBy(() -> streaming.complete(ASK, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("reported an error while streaming")
                .hasMessageContaining("context length exceeded");
    }

    @Test
    void a_reply_without_choices_is_an_unreadable_reply() {
        server.replyRaw("""
                {"id":"x","object":"chat.completion","created":1,"model":"local-model","choices":[]}""");

        assertThatThrownBy(() -> whole.complete(ASK, List.of(), null))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("could not be read")
                .hasMessageContaining("no choices");
    }
}
