package dev.agentbus.testkit.model;

/**
 * How a {@link ScriptedModelServer} tells its context window, imitating the servers that do:
 * vLLM ({@code max_model_len} in {@code GET /v1/models}), LM Studio ({@code GET /api/v0/models}), llama.cpp
 * ({@code GET /props}) and Ollama ({@code POST /api/show}).
 */
public enum WindowStyle {
    VLLM, LM_STUDIO, LLAMA_CPP, OLLAMA
}
