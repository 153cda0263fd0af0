package dev.agentbus.systemtests;

import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/**
 * Tests of a class share one standalone stack (real broker, PostgreSQL and five services in this JVM) with the
 * default settings (and semantic search on), and one scripted model server: starting them takes seconds, a test only needs a new session.
 */
abstract class OnStandaloneStack {
    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start();
        // Semantic search on, as with an operator who set an embedding model: the scripted server embeds (its hashed
        // bag of words), so every system test also runs the gateway's embedder beside the read models.
        // The scripted servers that stand for a person's own model server run on this host's loopback, an internal
        // address: the operator opens it, as a team opens its model server on the LAN (docs/configuration.md).
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.search.embedding-model", "scripted-embedding",
                "agentbus.outgoing.allow", "127.0.0.1"));
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
