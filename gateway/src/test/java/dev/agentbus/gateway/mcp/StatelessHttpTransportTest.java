package dev.agentbus.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.gateway.errors.ApiException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stateless transport under the SDK's real stateless server, without HTTP: what each kind of message is answered
 * with, that the caller's user reaches the tools, and that the API's refusals become JSON-RPC errors.
 */
class StatelessHttpTransportTest {
    static final ObjectMapper JSON = new ObjectMapper();

    private StatelessHttpTransport transport;
    private McpStatelessSyncServer server;

    @BeforeEach
    void start() {
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        transport = new StatelessHttpTransport(json);
        server = McpServer.sync(transport).serverInfo("agentbus", "test")
                .capabilities(ServerCapabilities.builder().tools(false).build()).jsonMapper(json)
                .immediateExecution(true)
                .tools(McpTools.tool(Tool.builder().name("whoami").inputSchema(json,
                                        "{\"type\":\"object\",\"properties\":{}}").build(),
                                call -> CallToolResult.builder().addTextContent(call.user()).build()),
                        McpTools.tool(Tool.builder().name("open").inputSchema(json, """
                                        {"type":"object","properties":{"session_id":{"type":"string"}},
                                         "required":["session_id"]}""").build(),
                                call -> {
                                    throw ApiException.notFound("no session " + call.string("session_id"));
                                }))
                .build();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void initialize_is_answered_with_the_servers_name_and_no_session_id_to_keep() throws Exception {
        StatelessHttpTransport.Answer answer = transport.handle("ada", """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""");

        assertThat(answer.status()).isEqualTo(200);
        JsonNode result = JSON.readTree(answer.body()).get("result");
        assertThat(result.get("serverInfo").get("name").asText()).isEqualTo("agentbus");
        assertThat(result.get("protocolVersion").asText()).isEqualTo("2025-06-18");
        assertThat(result.get("capabilities").has("tools")).isTrue();
    }

    @Test
    void a_notification_is_accepted_with_no_body() {
        StatelessHttpTransport.Answer answer = transport.handle("ada",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

        assertThat(answer).isEqualTo(new StatelessHttpTransport.Answer(202, null));
    }

    @Test
    void the_tools_are_called_as_the_user_the_gateway_proved() throws Exception {
        StatelessHttpTransport.Answer ada = transport.handle("ada", call("whoami", "{}"));
        StatelessHttpTransport.Answer bob = transport.handle("bob", call("whoami", "{}"));

        assertThat(JSON.readTree(ada.body()).at("/result/content/0/text").asText()).isEqualTo("ada");
        assertThat(JSON.readTree(bob.body()).at("/result/content/0/text").asText()).isEqualTo("bob");
    }

    @Test
    void a_refusal_of_the_api_is_a_json_rpc_error_with_the_apis_status() throws Exception {
        StatelessHttpTransport.Answer answer = transport.handle("ada", call("open", "{\"session_id\":\"s-9\"}"));

        assertThat(answer.status()).isEqualTo(200);
        JsonNode body = JSON.readTree(answer.body());
        assertThat(body.get("id").asInt()).isEqualTo(7);
        assertThat(body.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(body.at("/error/message").asText()).isEqualTo("no session s-9");
        assertThat(body.at("/error/data/status").asInt()).isEqualTo(404);
        assertThat(body.at("/error/data/error").asText()).isEqualTo("not_found");
    }

    @Test
    void arguments_against_the_schema_and_unknown_tools_and_methods_are_refused_by_the_sdk() throws Exception {
        JsonNode missing = JSON.readTree(transport.handle("ada", call("open", "{}")).body());
        JsonNode unknownTool = JSON.readTree(transport.handle("ada", call("format_disk", "{}")).body());
        JsonNode unknownMethod = JSON.readTree(transport.handle("ada",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}").body());

        assertThat(missing.at("/result/isError").asBoolean()).isTrue();
        assertThat(missing.at("/result/content/0/text").asText()).contains("session_id");
        assertThat(unknownTool.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(unknownMethod.at("/error/code").asInt()).isEqualTo(-32601);
    }

    @Test
    void what_is_not_one_json_rpc_message_is_400_with_a_json_rpc_error() throws Exception {
        StatelessHttpTransport.Answer garbage = transport.handle("ada", "{not json");
        StatelessHttpTransport.Answer empty = transport.handle("ada", "");
        StatelessHttpTransport.Answer batch = transport.handle("ada", "[" + call("whoami", "{}") + "]");
        StatelessHttpTransport.Answer response = transport.handle("ada",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        StatelessHttpTransport.Answer neither = transport.handle("ada", "{\"jsonrpc\":\"2.0\",\"id\":1}");

        assertThat(garbage.status()).isEqualTo(400);
        assertThat(JSON.readTree(garbage.body()).at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(JSON.readTree(garbage.body()).get("id").isNull()).isTrue();
        assertThat(JSON.readTree(empty.body()).at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(batch.status()).isEqualTo(400);
        assertThat(JSON.readTree(batch.body()).at("/error/message").asText()).contains("batches");
        assertThat(JSON.readTree(response.body()).at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(JSON.readTree(neither.body()).at("/error/code").asInt()).isEqualTo(-32600);
    }

    @Test
    void a_closing_server_answers_503() {
        server.close();

        assertThat(transport.handle("ada", call("whoami", "{}")).status()).isEqualTo(503);
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }
}
