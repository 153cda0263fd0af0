package dev.agentbus.systemtests;

import dev.agentbus.standalone.Standalone;
import dev.agentbus.testkit.model.ScriptedModelServer;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The standalone stack (real broker, five service contexts) wired to a scripted model server, for tests. */
final class StandaloneStack implements AutoCloseable {
    static final String TOKEN = "test-token";

    final Path dataDir;
    final ScriptedModelServer model;
    final Standalone stack;
    final GatewayClient gateway;

    StandaloneStack(Path dataDir, ScriptedModelServer model, Map<String, Object> extra) {
        this.dataDir = dataDir;
        this.model = model;
        this.stack = new Standalone(dataDir, 0);
        Map<String, Object> props = new HashMap<>(Map.of(
                "llm.url", model.baseUrl(),
                "agentbus.gateway.port", "-1",
                "agentbus.gateway.token", TOKEN,
                "agentbus.kafka.partitions", "2"));
        props.putAll(extra);
        stack.start(props);
        // The token the gateway really uses: TOKEN, unless a test set another one, or none so that the gateway makes
        // <data dir>/gateway-token itself (SymlinkRaceIT attacks that file).
        this.gateway = new GatewayClient(stack.gatewayUrl(), stack.token());
    }

    Path workspace(String sessionId) {
        return dataDir.resolve("workspaces").resolve("local").resolve(sessionId);
    }

    @Override
    public void close() {
        stack.close();
    }
}
