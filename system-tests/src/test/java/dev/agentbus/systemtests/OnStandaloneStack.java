package dev.agentbus.systemtests;

import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/**
 * Tests of a class share one standalone stack (real broker, PostgreSQL and five services in this JVM) with the
 * default settings, and one scripted model server: starting them takes seconds, a test only needs a new session.
 */
abstract class OnStandaloneStack {
    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start();
        stack = new StandaloneStack(dataDir, model, Map.of());
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
}
