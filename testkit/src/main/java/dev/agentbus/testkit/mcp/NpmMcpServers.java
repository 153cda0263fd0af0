package dev.agentbus.testkit.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real MCP servers from npm that the MCP client is tested against, installed with npm into a directory the
 * tests own ({@code target/mcp-npm} of the module), once per build: {@code @modelcontextprotocol/server-everything}
 * (every kind of tool, and its environment through {@code get-env}) and {@code @modelcontextprotocol/server-filesystem}
 * (files under the directories it is given). Needs {@code node} and {@code npm}, and the npm registry reachable the
 * first time.
 */
public final class NpmMcpServers {
    /** Pinned, so a new release cannot change what the tests see. */
    public static final String EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";
    public static final String FILESYSTEM = "@modelcontextprotocol/server-filesystem@2026.8.31";

    private final Path prefix;

    private NpmMcpServers(Path prefix) {
        this.prefix = prefix;
    }

    /** Installs both servers under {@code target/mcp-npm} unless they are there already. */
    public static synchronized NpmMcpServers installed() {
        Path prefix = Path.of("target", "mcp-npm").toAbsolutePath();
        NpmMcpServers servers = new NpmMcpServers(prefix);
        if (Files.isRegularFile(servers.everything()) && Files.isRegularFile(servers.filesystem())) {
            return servers;
        }
        try {
            Files.createDirectories(prefix);
            Process npm = new ProcessBuilder(List.of("npm", "install", "--no-audit", "--no-fund", "--prefix",
                    prefix.toString(), EVERYTHING, FILESYSTEM)).redirectErrorStream(true).start();
            String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
                throw new IllegalStateException("npm install of the MCP test servers failed:\n" + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run npm to install the MCP test servers: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return servers;
    }

    /** The directory holding {@code node_modules}: to bind read-only into a sandbox. */
    public Path prefix() {
        return prefix;
    }

    /** {@code mcp-server-everything} (its {@code .bin} link; it runs with {@code node} from the PATH). */
    public Path everything() {
        return prefix.resolve("node_modules/.bin/mcp-server-everything");
    }

    /** {@code mcp-server-filesystem}. */
    public Path filesystem() {
        return prefix.resolve("node_modules/.bin/mcp-server-filesystem");
    }
}
