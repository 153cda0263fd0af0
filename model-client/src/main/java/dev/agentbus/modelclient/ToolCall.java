package dev.agentbus.modelclient;

import java.util.Objects;

/**
 * A function call the model asked for.
 *
 * @param id            the id the model gave the call; the tool result must quote it
 * @param name          the function name
 * @param argumentsJson the arguments as a JSON object in text form, exactly as the model wrote them
 *                      (not validated: a model can write broken JSON, and the caller decides what to do)
 */
public record ToolCall(String id, String name, String argumentsJson) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        // Some servers (llama.cpp, Ollama for no-arg tools) send "" or nothing; "{}" is what it means.
        argumentsJson = argumentsJson == null || argumentsJson.isBlank() ? "{}" : argumentsJson;
    }
}
