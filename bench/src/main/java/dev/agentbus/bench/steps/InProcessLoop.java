package dev.agentbus.bench.steps;

import dev.agentbus.bench.Stats;
import dev.agentbus.events.Json;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.modelclient.DeltaListener;
import dev.agentbus.modelclient.ModelClient;
import dev.agentbus.modelclient.ModelReply;
import dev.agentbus.modelclient.ModelSettings;
import dev.agentbus.modelclient.ToolDefinition;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import dev.agentbus.sandbox.tools.SandboxSettings;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.sandbox.tools.ToolOutcome;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedToolCall;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor a step is compared with: one process, no Kafka. The same model client the orchestrator uses calls the
 * same scripted model with the same prompt (the orchestrator's system prompt and tool catalog, and a conversation
 * that grows by one call and its result per step), and the same tool code the sandbox-worker uses runs the tool it
 * asked for in a warm sandbox of the same backend, one step after the other.
 */
final class InProcessLoop {
    private InProcessLoop() {
    }

    record Result(String tool, double[] stepMs, double[] modelMs, double[] toolMs) {
        double p50() {
            return Stats.percentile(stepMs, 50);
        }

        double p99() {
            return Stats.percentile(stepMs, 99);
        }
    }

    static Result run(ScriptedModelServer model, ToolUnderTest tool, Path workspace, String backend, int steps)
            throws Exception {
        model.reset();
        int warmUp = 10;
        for (int i = 0; i < warmUp + steps; i++) {
            model.replyToolCalls(List.of(ScriptedToolCall.of(tool.name(), tool.argumentsJson())));
        }
        Files.createDirectories(workspace);
        SandboxConfig config = SandboxConfig.defaults().withBackend(SandboxConfig.Backend.valueOf(backend.toUpperCase()))
                .withWorkerId("step-bench-in-process");
        double[] stepMs = new double[steps];
        double[] modelMs = new double[steps];
        double[] toolMs = new double[steps];
        try (ModelClient client = new ModelClient(ModelSettings.of(model.baseUrl(), ScriptedModelServer.DEFAULT_MODEL));
             Sandboxes sandboxes = new Sandboxes(config)) {
            ToolExecutor executor = new ToolExecutor(SandboxSettings.defaults(), sandboxes);
            SandboxSpec session = new SandboxSpec("bench", "in-process-" + tool.name(), workspace, null);
            // The prompt the orchestrator sends: its system prompt, every tool of the catalog, and the conversation
            // growing by a call and its result each step (a turn of the stack starts afresh like this one).
            List<ToolDefinition> tools = PromptBuilder.tools();
            List<ChatMessage> messages = new ArrayList<>(List.of(
                    new ChatMessage.System(PromptBuilder.DEFAULT_SYSTEM_PROMPT),
                    new ChatMessage.User("use " + tool.name() + " until stopped")));
            for (int i = -warmUp; i < steps; i++) {
                if (i == 0) {
                    messages.subList(2, messages.size()).clear();
                }
                long start = System.nanoTime();
                ModelReply reply = client.complete(messages, tools, DeltaListener.NONE);
                long modelDone = System.nanoTime();
                var call = reply.toolCalls().getFirst();
                ToolOutcome outcome = executor.execute(call.name(), Json.mapper().readTree(call.argumentsJson()),
                        session, chunk -> { });
                long end = System.nanoTime();
                messages.add(new ChatMessage.Assistant(reply.content(), reply.toolCalls()));
                messages.add(new ChatMessage.ToolResult(call.id(), outcome.forModel()));
                if (!outcome.ok()) {
                    throw new IllegalStateException(tool.name() + " failed in process: " + outcome.forModel());
                }
                if (i >= 0) {
                    stepMs[i] = (end - start) / 1e6;
                    modelMs[i] = (modelDone - start) / 1e6;
                    toolMs[i] = (end - modelDone) / 1e6;
                }
            }
        }
        return new Result(tool.name(), stepMs, modelMs, toolMs);
    }
}
