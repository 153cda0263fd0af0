package dev.agentbus.modelclient;

/**
 * Receives a reply's text while it is generated, so a UI can show it live. Called on the thread that
 * runs {@link ModelClient#complete}, in order. Without streaming, each method is called once with the
 * whole text (if there is any), so callers need not care which mode is on.
 */
public interface DeltaListener {

    /** Ignores everything. */
    DeltaListener NONE = new DeltaListener() {};

    /** A piece of the visible answer (never part of a {@code <think>} block). */
    default void onContent(String text) {}

    /** A piece of the model's reasoning. */
    default void onReasoning(String text) {}
}
