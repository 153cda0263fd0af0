package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.agentbus.sandbox.tools.Json.args;

/**
 * The fixture of the tool tests that run programs: the worker's real provider on the bubblewrap backend, a
 * workspace and a session of the test's own, and an executor over them, closed after each test.
 */
abstract class SandboxedToolsIT {
    @TempDir
    Path tmp;
    Path ws;
    Sandboxes sandboxes;
    SandboxSpec spec;
    ToolExecutor tools;

    @BeforeEach
    void startSandboxes() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
        sandboxes = TestSandboxes.bubblewrap();
        spec = TestSandboxes.session(ws, null);
        tools = new ToolExecutor(SandboxSettings.defaults(), sandboxes);
    }

    @AfterEach
    void closeSandboxes() {
        sandboxes.close();
    }

    /** One call of {@code tool} in the test's session, arguments given as key, value, key, value … */
    ToolOutcome call(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), spec, null);
    }
}
