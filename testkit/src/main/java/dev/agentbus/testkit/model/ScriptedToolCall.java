package dev.agentbus.testkit.model;

import java.util.Objects;

/**
 * One tool call a scripted reply asks for.
 *
 * @param id            the call id sent to the client; {@code null} means "let the server number it"
 *                      ({@code call_1}, {@code call_2}, … in script order), which is what tests
 *                      normally want because the ids then stay predictable
 * @param name          the function name
 * @param argumentsJson the arguments exactly as the server sends them (a JSON object as text; an empty
 *                      string is allowed on purpose, because some real servers send that for no-arg tools)
 */
public record ScriptedToolCall(String id, String name, String argumentsJson) {

    public ScriptedToolCall {
        Objects.requireNonNull(name, "name");
        argumentsJson = argumentsJson == null ? "" : argumentsJson;
    }

    /** A call whose id the server assigns when it is scripted. */
    public static ScriptedToolCall of(String name, String argumentsJson) {
        return new ScriptedToolCall(null, name, argumentsJson);
    }

    ScriptedToolCall withId(String newId) {
        return new ScriptedToolCall(newId, name, argumentsJson);
    }
}
