package dev.agentbus.modelclient;

/**
 * The model's context window, as its server says.
 *
 * @param tokens how many tokens prompt and answer may have together
 * @param source which endpoint said so, e.g. {@code llama.cpp /props}
 */
public record ContextWindow(long tokens, String source) {
}
