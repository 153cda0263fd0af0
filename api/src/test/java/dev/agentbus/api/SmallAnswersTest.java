package dev.agentbus.api;

import dev.agentbus.events.memory.MemoryDocument;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The answers of the writing endpoints, exactly as docs/api.md shows them. */
class SmallAnswersTest {

    @Test
    void a_created_session_is_its_id_and_a_slow_one_says_pending() throws Exception {
        assertThat(ApiJson.write(CreatedSession.created("s1"))).isEqualTo("{\"id\":\"s1\"}");
        assertThat(ApiJson.write(CreatedSession.pending("s1"))).isEqualTo("{\"id\":\"s1\",\"status\":\"pending\"}");
        assertThat(ApiJson.read("{\"id\":\"s1\",\"status\":\"pending\"}", CreatedSession.class).isPending()).isTrue();
        assertThat(ApiJson.read("{\"id\":\"s1\"}", CreatedSession.class).isPending()).isFalse();
    }

    @Test
    void an_accepted_input_is_its_id() {
        assertThat(ApiJson.write(new AcceptedInput("in-1"))).isEqualTo("{\"inputId\":\"in-1\"}");
    }

    @Test
    void a_fork_without_a_checkpoint_leaves_the_checkpoint_out() {
        ForkedSession fork = new ForkedSession("s2", "s1", 9, null, null);

        assertThat(ApiJson.write(fork)).isEqualTo("{\"id\":\"s2\",\"fromSessionId\":\"s1\",\"atSeq\":9}");
        assertThat(ApiJson.write(new ForkedSession("s2", "s1", 9, "c1", null).pending()))
                .isEqualTo("{\"id\":\"s2\",\"fromSessionId\":\"s1\",\"atSeq\":9,\"checkpoint\":\"c1\","
                        + "\"status\":\"pending\"}");
    }

    @Test
    void a_rewind_names_what_it_restored_and_a_slow_one_only_its_call() {
        assertThat(ApiJson.write(Rewound.done("call_1", "c0", "restored", "c2", 19)))
                .isEqualTo("{\"callId\":\"call_1\",\"restored\":\"c0\",\"output\":\"restored\",\"checkpoint\":\"c2\","
                        + "\"seq\":19}");
        assertThat(ApiJson.write(Rewound.pending("call_1")))
                .isEqualTo("{\"callId\":\"call_1\",\"status\":\"pending\"}");
    }

    @Test
    void an_upload_answer_has_every_field_even_without_a_result() {
        assertThat(ApiJson.write(new UploadedFile("a.txt", 2, "ab", "user-1", null)))
                .isEqualTo("{\"path\":\"a.txt\",\"bytes\":2,\"sha256\":\"ab\",\"callId\":\"user-1\",\"result\":null}");
    }

    @Test
    void memory_is_the_stored_document_and_a_new_user_has_an_empty_one_at_version_0() {
        assertThat(ApiJson.write(Memory.of(MemoryDocument.empty("local"))))
                .isEqualTo("{\"userId\":\"local\",\"content\":\"\",\"version\":0}");
        MemoryDocument doc = new MemoryDocument("local", "Prefers French.", 1,
                Instant.parse("2025-06-02T09:20:11.418207Z"), "cmd-1");
        assertThat(ApiJson.write(Memory.of(doc))).isEqualTo("{\"userId\":\"local\",\"content\":\"Prefers French.\","
                + "\"version\":1,\"updatedAt\":\"2025-06-02T09:20:11.418207Z\",\"lastCommandId\":\"cmd-1\"}");
    }

    @Test
    void a_users_mcp_servers_leave_out_what_a_server_has_not_and_none_is_own_false_with_no_servers() {
        var servers = new java.util.LinkedHashMap<String, dev.agentbus.api.accounts.McpServers.Server>();
        servers.put("files", new dev.agentbus.api.accounts.McpServers.Server("srv", java.util.List.of("/workspace"),
                java.util.Map.of("K", "***"), null, java.util.Map.of()));
        servers.put("search", new dev.agentbus.api.accounts.McpServers.Server(null, java.util.List.of(),
                java.util.Map.of(), "https://mcp.example.com/mcp", java.util.Map.of("Authorization", "***")));
        assertThat(ApiJson.write(new dev.agentbus.api.accounts.McpServers(true, servers, 2L,
                Instant.parse("2026-11-26T03:30:00Z"))))
                .isEqualTo("{\"own\":true,\"mcpServers\":{\"files\":{\"command\":\"srv\",\"args\":[\"/workspace\"],"
                        + "\"env\":{\"K\":\"***\"}},\"search\":{\"url\":\"https://mcp.example.com/mcp\","
                        + "\"headers\":{\"Authorization\":\"***\"}}},\"version\":2,\"updatedAt\":\"2026-11-26T03:30:00Z\"}");
        assertThat(ApiJson.write(dev.agentbus.api.accounts.McpServers.none()))
                .isEqualTo("{\"own\":false,\"mcpServers\":{}}");
    }
}
