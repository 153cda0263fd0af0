package dev.agentbus.sandbox.mcp;

import dev.agentbus.events.mcp.McpConfigException;
import dev.agentbus.events.mcp.McpServerConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code mcpServers} configuration: the team's from {@code AGENTBUS_MCP_CONFIG} (JSON or a file), a workspace's
 * {@code .mcp.json}, what a workspace may not ask for, and clear errors that never echo a secret.
 */
class McpConfigTest {
    static final String TEAM = """
            {"mcpServers": {
              "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"],
                             "env": {"API_KEY": "sk-team-secret"}},
              "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer tok-123"}},
              "local": {"command": "/opt/tools/server", "trusted": true}
            }}""";

    @Test
    void the_team_configuration_is_read_from_json_with_both_transports_in_order() {
        List<McpServerConfig> servers = McpConfig.team(TEAM);

        assertThat(servers).extracting(McpServerConfig::name).containsExactly("everything", "search", "local");
        McpServerConfig everything = servers.get(0);
        assertThat(everything.stdio()).isTrue();
        assertThat(everything.transport()).isEqualTo("stdio");
        assertThat(everything.args()).containsExactly("-y", "@modelcontextprotocol/server-everything");
        assertThat(everything.env()).isEqualTo(Map.of("API_KEY", "sk-team-secret"));
        assertThat(everything.source()).isEqualTo("team");
        McpServerConfig search = servers.get(1);
        assertThat(search.transport()).isEqualTo("http");
        assertThat(search.headers()).containsEntry("Authorization", "Bearer tok-123");
        assertThat(servers.get(2).trusted()).isTrue();
        assertThat(servers.toString()).as("secrets never in a log line")
                .doesNotContain("sk-team-secret").doesNotContain("tok-123");
    }

    @Test
    void the_team_configuration_may_be_a_file_and_blank_means_none(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, TEAM);
        assertThat(McpConfig.team(file.toString())).hasSize(3);
        assertThat(McpConfig.team("")).isEmpty();
        assertThat(McpConfig.team(null)).isEmpty();
        assertThatThrownBy(() -> McpConfig.team(dir.resolve("missing.json").toString()))
                .isInstanceOf(McpConfigException.class).hasMessageContaining("AGENTBUS_MCP_CONFIG: cannot read");
    }

    @Test
    void a_workspace_adds_stdio_servers_from_its_mcp_json_and_the_teams_server_of_the_same_name_wins(
            @TempDir Path workspace) throws Exception {
        assertThat(McpConfig.workspace(workspace)).isEmpty();
        Files.writeString(workspace.resolve("mcp.json"), """
                {"mcpServers": {"everything": {"command": "mine"}, "files": {"command": "mcp-server-filesystem",
                "args": ["/workspace"]}}}""");
        List<McpServerConfig> mine = McpConfig.workspace(workspace);
        assertThat(mine).extracting(McpServerConfig::source).containsOnly("workspace");

        List<McpServerConfig> merged = McpConfig.merge(McpConfig.team(TEAM), mine);
        assertThat(merged).extracting(McpServerConfig::name).containsExactly("everything", "search", "local", "files");
        assertThat(merged.getFirst().command()).isEqualTo("npx");

        Files.writeString(workspace.resolve(".mcp.json"), "{\"mcpServers\": {}}");
        assertThat(McpConfig.workspace(workspace)).as(".mcp.json is read first").isEmpty();
    }

    @Test
    void a_workspace_may_not_configure_remote_or_trusted_servers() {
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"far\":{\"url\":\"http://10.0.0.1/mcp\"}}}",
                "workspace", ".mcp.json")).isInstanceOf(McpConfigException.class)
                .hasMessage(".mcp.json: server 'far': a workspace may configure stdio servers only (they run in the "
                        + "sandbox); remote servers belong in the team's configuration (AGENTBUS_MCP_CONFIG) or the "
                        + "user's own (PUT /api/v1/me/mcp-servers)");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\":{\"x\":{\"command\":\"a\",\"trusted\":true}}}",
                "workspace", ".mcp.json")).hasMessageContaining("only the team's configuration");
    }

    @Test
    void a_broken_configuration_is_refused_with_what_and_where_and_never_the_secret_value() {
        assertThatThrownBy(() -> McpConfig.team("{not json")).hasMessageStartingWith("AGENTBUS_MCP_CONFIG is not valid JSON");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":[]}"))
                .hasMessageContaining("\"mcpServers\" must be an object");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":{\"both\":{\"command\":\"a\",\"url\":\"http://h/\"}}}"))
                .hasMessageContaining("server 'both' needs exactly one of \"command\" (stdio) or \"url\"");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":{\"none\":{}}}"))
                .hasMessageContaining("server 'none' needs exactly one of");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":{\"a__b\":{\"command\":\"x\"}}}"))
                .hasMessageContaining("MCP server name 'a__b'");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":{\"f\":{\"url\":\"ftp://h/mcp\"}}}"))
                .hasMessageContaining("must be an http or https URL");
        assertThatThrownBy(() -> McpConfig.team("{\"mcpServers\":{\"f\":{\"command\":\"x\",\"args\":\"-y\"}}}"))
                .hasMessageContaining("\"args\" must be an array of strings");
        assertThatThrownBy(() -> McpConfig.team(
                "{\"mcpServers\":{\"f\":{\"url\":\"https://h/mcp\",\"headers\":{\"Authorization\":{\"v\":\"s3cr3t\"}}}}}"))
                .hasMessageContaining("\"headers\" value of 'Authorization' must be a string")
                .hasMessageNotContaining("s3cr3t");
    }

    @Test
    void the_settings_check_the_team_configuration_at_start() {
        assertThatThrownBy(() -> new McpSettings("{\"mcpServers\":{\"x\":{}}}", "", false, 60))
                .isInstanceOf(McpConfigException.class);
        assertThatThrownBy(() -> new McpSettings("", "", false, 0))
                .hasMessage("agentbus.mcp.request-timeout-seconds must be at least 1, not 0");
        assertThat(new McpSettings("", " /opt/a , /opt/b ", false, 60).packagePaths())
                .containsExactly(Path.of("/opt/a"), Path.of("/opt/b"));
    }

    @Test
    void a_user_may_configure_stdio_servers_and_plain_remote_ones_but_never_trusted() {
        List<McpServerConfig> user = McpConfig.parse("""
                {"mcpServers": {"mine": {"command": "my-server", "env": {"TOKEN": "sk-user"}},
                                "remote": {"url": "https://mcp.example.com/mcp",
                                           "headers": {"Authorization": "Bearer u"}}}}""",
                McpServerConfig.USER, "mcpServers");

        assertThat(user).extracting(McpServerConfig::name).containsExactly("mine", "remote");
        assertThat(user).extracting(McpServerConfig::source).containsOnly("user");
        assertThat(user.get(1).url()).isEqualTo("https://mcp.example.com/mcp");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"t\": {\"command\": \"x\", \"trusted\": true}}}",
                McpServerConfig.USER, "mcpServers")).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("only the team's configuration");
        // The rules of a user's own model server: no credential in the URL (it is shown and recorded).
        for (String url : List.of("https://mcp.example.com/mcp?key=sk-q", "https://me:sk-p@mcp.example.com/mcp",
                "https://mcp.example.com/mcp#sk-f", "file:///etc/passwd", "https:///nohost")) {
            assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"t\": {\"url\": \"" + url + "\"}}}",
                    McpServerConfig.USER, "mcpServers")).as(url).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("plain http:// or https:// URL").hasMessageNotContaining("sk-");
        }
        // The team may still use a query (its configuration is the admin's).
        assertThat(McpConfig.team("{\"mcpServers\": {\"t\": {\"url\": \"https://a.example/mcp?x=1\"}}}"))
                .hasSize(1);
    }

    @Test
    void a_sessions_servers_are_the_teams_then_its_owners_then_its_workspaces_and_the_earlier_wins_a_name() {
        List<McpServerConfig> team = McpConfig.parse("""
                {"mcpServers": {"shared": {"command": "team-shared"}, "t": {"command": "team-only"}}}""",
                McpServerConfig.TEAM, "team");
        List<McpServerConfig> user = McpConfig.parse("""
                {"mcpServers": {"shared": {"command": "user-shared"}, "u": {"command": "user-only"},
                                "mine": {"command": "user-mine"}}}""", McpServerConfig.USER, "user");
        List<McpServerConfig> workspace = McpConfig.parse("""
                {"mcpServers": {"mine": {"command": "ws-mine"}, "shared": {"command": "ws-shared"},
                                "w": {"command": "ws-only"}}}""", McpServerConfig.WORKSPACE, "workspace");

        List<McpServerConfig> merged = McpConfig.merge(team, user, workspace);

        assertThat(merged).extracting(McpServerConfig::name).containsExactly("shared", "t", "u", "mine", "w");
        assertThat(merged).extracting(McpServerConfig::command)
                .containsExactly("team-shared", "team-only", "user-only", "user-mine", "ws-only");
        assertThat(merged).extracting(McpServerConfig::source)
                .containsExactly("team", "team", "user", "user", "workspace");
        assertThat(McpConfig.merge(List.of(), user, List.of())).isEqualTo(user);
        assertThat(McpConfig.merge(team, workspace)).extracting(McpServerConfig::command)
                .containsExactly("team-shared", "team-only", "ws-mine", "ws-only");
    }
}
