package dev.agentbus.testkit.model;

import static dev.agentbus.testkit.model.Exchanges.JSON;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

/**
 * The routes that describe the model rather than run it: OpenAI's {@code GET /v1/models}, and the context window
 * and capabilities told the way vLLM ({@code max_model_len} in the model list), LM Studio
 * ({@code GET /api/v0/models}), llama.cpp ({@code GET /props}) and Ollama ({@code POST /api/show}) tell them. Until
 * a test asks for a style the server tells neither, like a hosted API, and those routes answer 404.
 */
final class ModelInfoRoutes {

    private final String modelName;
    private final Recorder recorder;
    private final long startedAt = Instant.now().getEpochSecond();

    /** The context window the server tells, and how; null: it tells none, like a hosted API. */
    private volatile WindowStyle windowStyle;
    private volatile long windowTokens;
    /** How the server tells its model's capabilities (LM Studio or Ollama), null: it tells none. */
    private volatile WindowStyle capabilityStyle;
    private volatile boolean toldVision;
    private volatile boolean toldTools;

    ModelInfoRoutes(String modelName, Recorder recorder) {
        this.modelName = modelName;
        this.recorder = recorder;
    }

    void tellContextWindow(WindowStyle style, long tokens) {
        this.windowStyle = Objects.requireNonNull(style, "style");
        this.windowTokens = tokens;
    }

    void tellCapabilities(WindowStyle style, boolean vision, boolean tools) {
        if (style != WindowStyle.LM_STUDIO && style != WindowStyle.OLLAMA) {
            throw new IllegalArgumentException(style + " servers do not tell capabilities");
        }
        this.capabilityStyle = style;
        this.toldVision = vision;
        this.toldTools = tools;
    }

    /** {@code GET /v1/models}: the one model, with vLLM's {@code max_model_len} when told that way. */
    void handleModelList(HttpExchange exchange) throws IOException {
        recorder.modelListAsked();
        ObjectNode model = JSON.createObjectNode()
                .put("id", modelName)
                .put("object", "model")
                .put("created", startedAt)
                .put("owned_by", "agentbus-testkit");
        if (windowStyle == WindowStyle.VLLM) {
            model.put("max_model_len", windowTokens);
        }
        ObjectNode list = JSON.createObjectNode().put("object", "list");
        list.putArray("data").add(model);
        Exchanges.sendJson(exchange, 200, list.toString());
    }

    /** Whether this route is one the server was told to answer in a style's way. */
    boolean serves(String path, String method) {
        return capabilityRoute(path, method) || windowRoute(path, method);
    }

    void handle(HttpExchange exchange, String path, String method) throws IOException {
        if (capabilityRoute(path, method)) {
            handleCapabilities(exchange);
        } else {
            handleWindow(exchange);
        }
    }

    /** LM Studio's and Ollama's routes, when the server tells capabilities their way (and the window, if told so). */
    private boolean capabilityRoute(String path, String method) {
        WindowStyle caps = capabilityStyle;
        return caps == WindowStyle.LM_STUDIO && path.equals("/api/v0/models") && method.equals("GET")
                || caps == WindowStyle.OLLAMA && path.equals("/api/show") && method.equals("POST");
    }

    private boolean windowRoute(String path, String method) {
        WindowStyle style = windowStyle;
        return style != null && switch (style) {
            case VLLM -> false; // told in /v1/models
            case LM_STUDIO -> path.equals("/api/v0/models") && method.equals("GET");
            case LLAMA_CPP -> path.equals("/props") && method.equals("GET");
            case OLLAMA -> path.equals("/api/show") && method.equals("POST");
        };
    }

    private void handleCapabilities(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        WindowStyle caps = capabilityStyle;
        if (caps == WindowStyle.LM_STUDIO) {
            ObjectNode m = body.putArray("data").addObject().put("id", modelName)
                    .put("type", toldVision ? "vlm" : "llm");
            if (toldTools) {
                m.putArray("capabilities").add("tool_use");
            }
            if (windowStyle == caps) {
                m.put("max_context_length", windowTokens * 4).put("loaded_context_length", windowTokens);
            }
        } else {
            ArrayNode list = body.putArray("capabilities").add("completion");
            if (toldVision) {
                list.add("vision");
            }
            if (toldTools) {
                list.add("tools");
            }
            if (windowStyle == caps) {
                body.put("parameters", "temperature 0.7\nnum_ctx " + windowTokens);
            }
        }
        Exchanges.sendJson(exchange, 200, body.toString());
    }

    private void handleWindow(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        switch (windowStyle) {
            case LM_STUDIO -> body.putArray("data").addObject().put("id", modelName).put("type", "llm")
                    .put("max_context_length", windowTokens * 4).put("loaded_context_length", windowTokens);
            case LLAMA_CPP -> body.putObject("default_generation_settings").put("n_ctx", windowTokens);
            case OLLAMA -> {
                body.put("parameters", "temperature 0.7\nnum_ctx " + windowTokens);
                body.putObject("model_info").put("llama.context_length", windowTokens * 4);
            }
            case VLLM -> {
            }
        }
        Exchanges.sendJson(exchange, 200, body.toString());
    }
}
