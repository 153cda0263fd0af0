package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool calls written as text, on a corpus of answers as local models really write them when their server does not
 * parse the calls itself. Given the tools offered, when the answer is read, then the calls (or none) and the text left.
 */
class TextToolCallsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<ToolDefinition> TOOLS = List.of(
            new ToolDefinition("read", "read a file", """
                    {"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}"""),
            new ToolDefinition("shell", "run a command", """
                    {"type":"object","properties":{"command":{"type":"string"},"timeout_seconds":{"type":"integer"}}}"""));
    private final TextToolCalls parser = new TextToolCalls(TOOLS);

    private static JsonNode args(ToolCall call) throws Exception {
        return JSON.readTree(call.argumentsJson());
    }

    @Test
    void qwen_hermes_tool_call_blocks_become_calls_and_the_words_around_them_stay_the_answer() throws Exception {
        String answer = """
                I'll look at the README first.
                <tool_call>
                {"name": "read", "arguments": {"path": "README.md"}}
                </tool_call>
                <tool_call>
                {"name": "shell", "arguments": {"command": "ls -la", "timeout_seconds": 10}}
                </tool_call>""";

        TextToolCalls.Found found = parser.find(answer).orElseThrow();

        assertThat(found.calls()).extracting(ToolCall::name).containsExactly("read", "shell");
        assertThat(args(found.calls().get(0)).get("path").asText()).isEqualTo("README.md");
        assertThat(args(found.calls().get(1)).get("timeout_seconds").asInt()).isEqualTo(10);
        assertThat(found.content()).isEqualTo("I'll look at the README first.");
        assertThat(found.calls()).extracting(ToolCall::id).doesNotHaveDuplicates().allMatch(id -> id.startsWith("call_"));
    }

    @Test
    void an_unclosed_tool_call_block_at_the_end_of_the_answer_is_still_read() throws Exception {
        // The server stops at the end-of-turn token, which some templates put where </tool_call> would be.
        Optional<TextToolCalls.Found> found = parser.find(
                "<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a.txt\"}}\n");

        assertThat(found).isPresent();
        assertThat(args(found.get().calls().getFirst()).get("path").asText()).isEqualTo("a.txt");
    }

    @Test
    void qwen3_coder_function_blocks_take_each_parameter_with_the_type_the_schema_gives_it() throws Exception {
        String answer = """
                <tool_call>
                <function=shell>
                <parameter=command>
                grep -rn "TODO" src/
                </parameter>
                <parameter=timeout_seconds>
                30
                </parameter>
                </function>
                </tool_call>""";

        ToolCall call = parser.find(answer).orElseThrow().calls().getFirst();

        assertThat(call.name()).isEqualTo("shell");
        assertThat(args(call).get("command").asText()).isEqualTo("grep -rn \"TODO\" src/");
        assertThat(args(call).get("timeout_seconds").isInt()).as("an integer in the schema").isTrue();
    }

    @Test
    void a_function_block_without_a_tool_call_around_it_is_read_too_and_a_string_stays_a_string() throws Exception {
        String answer = "Let me check.\n<function=read><parameter=path>123</parameter></function>";

        TextToolCalls.Found found = parser.find(answer).orElseThrow();

        assertThat(args(found.calls().getFirst()).get("path").isTextual()).as("a path named 123 is a string")
                .isTrue();
        assertThat(found.content()).isEqualTo("Let me check.");
    }

    @Test
    void llama_style_bare_json_with_parameters_is_one_call_and_leaves_no_answer_text() throws Exception {
        TextToolCalls.Found found = parser.find(
                "{\"name\": \"read\", \"parameters\": {\"path\": \"src/Main.java\", \"limit\": 40}}").orElseThrow();

        assertThat(found.calls()).singleElement().extracting(ToolCall::name).isEqualTo("read");
        assertThat(args(found.calls().getFirst()).get("limit").asInt()).isEqualTo(40);
        assertThat(found.content()).isEmpty();
    }

    @Test
    void mistral_tool_calls_marker_with_an_array_and_arguments_as_json_text() throws Exception {
        String answer = "[TOOL_CALLS][{\"name\": \"shell\", \"arguments\": \"{\\\"command\\\": \\\"pwd\\\"}\", "
                + "\"id\": \"a1b2c3d4e\"}, {\"name\": \"read\", \"arguments\": {\"path\": \"x\"}}]";

        TextToolCalls.Found found = parser.find(answer).orElseThrow();

        assertThat(found.calls()).extracting(ToolCall::name).containsExactly("shell", "read");
        assertThat(found.calls().getFirst().id()).as("the model's own id is kept").isEqualTo("a1b2c3d4e");
        assertThat(args(found.calls().getFirst()).get("command").asText()).isEqualTo("pwd");
    }

    @Test
    void json_in_a_fence_in_openais_own_shape_is_a_call() throws Exception {
        String answer = "```json\n{\"type\": \"function\", \"function\": {\"name\": \"read\", "
                + "\"arguments\": {\"path\": \"notes.md\"}}}\n```";

        assertThat(parser.find(answer).orElseThrow().calls()).singleElement().extracting(ToolCall::name)
                .isEqualTo("read");
    }

    @Test
    void an_answer_that_shows_json_naming_no_offered_tool_stays_an_answer() {
        assertThat(parser.find("{\"name\": \"Ada\", \"arguments\": {\"age\": 36}}")).isEmpty();
        assertThat(parser.find("<tool_call>{\"name\": \"delete_everything\", \"arguments\": {}}</tool_call>"))
                .as("a block naming an unknown tool leaves the whole answer as text").isEmpty();
    }

    @Test
    void prose_broken_json_and_json_with_more_text_after_it_are_not_calls() {
        assertThat(parser.find("The file is read with the read tool.")).isEmpty();
        assertThat(parser.find("<tool_call>{\"name\": \"read\", \"arguments\": {\"path\": </tool_call>")).isEmpty();
        assertThat(parser.find("{\"name\": \"read\", \"arguments\": {}} and then I will stop")).isEmpty();
    }

    @Test
    void nothing_is_parsed_when_the_request_offered_no_tools() {
        assertThat(new TextToolCalls(List.of())
                .find("<tool_call>{\"name\": \"read\", \"arguments\": {}}</tool_call>")).isEmpty();
    }

    @Test
    void a_reply_with_native_calls_is_left_as_the_server_sent_it() {
        ModelReply nativeCall = new ModelReply("m", "<tool_call>{\"name\": \"shell\", \"arguments\": {}}</tool_call>",
                "", List.of(new ToolCall("c1", "read", "{}")), TokenCounts.ZERO, "tool_calls");

        assertThat(TextToolCalls.withTextToolCalls(nativeCall, TOOLS)).isSameAs(nativeCall);
    }

    @Test
    void a_reply_with_calls_as_text_gets_them_as_real_calls_and_keeps_its_reasoning() {
        ModelReply text = new ModelReply("m", "<tool_call>{\"name\": \"shell\", \"arguments\": {\"command\": "
                + "\"ls\"}}</tool_call>", "I should list the files", List.of(), TokenCounts.ZERO, "stop");

        ModelReply read = TextToolCalls.withTextToolCalls(text, TOOLS);

        assertThat(read.hasToolCalls()).isTrue();
        assertThat(read.content()).isEmpty();
        assertThat(read.reasoning()).isEqualTo("I should list the files");
    }
}
