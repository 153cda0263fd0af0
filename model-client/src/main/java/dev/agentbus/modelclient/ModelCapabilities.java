package dev.agentbus.modelclient;

/**
 * What a model can do, as its server says; each field null where the server does not say (vLLM, llama.cpp and hosted
 * APIs say none of it in a standard way).
 *
 * @param vision        takes images (LM Studio: {@code type} {@code vlm}; Ollama: {@code vision} among its
 *                      capabilities)
 * @param tools         takes tool definitions (LM Studio: {@code tool_use}; Ollama: {@code tools})
 * @param thinking      reasons before it answers (Ollama: {@code thinking})
 * @param contextWindow the context window in tokens
 * @param source        where it was read, e.g. {@code LM Studio /api/v0/models}; null when nowhere
 */
public record ModelCapabilities(Boolean vision, Boolean tools, Boolean thinking, Long contextWindow, String source) {
    public static final ModelCapabilities UNKNOWN = new ModelCapabilities(null, null, null, null, null);

    /** Whether the server said anything at all. */
    public boolean known() {
        return vision != null || tools != null || thinking != null || contextWindow != null;
    }
}
