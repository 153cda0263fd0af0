package dev.agentbus.events.session;

/**
 * How full the model's context window was on one model call: recorded with {@code model_call.completed.v1}, so the
 * context gauge and the decision to compact are folded from the log and never measured again on replay.
 *
 * @param promptTokens     the prompt's tokens, as the server reported them, else estimated from its characters
 * @param completionTokens the answer's tokens, reported or estimated the same way
 * @param estimated        the server reported no usage, so both counts are estimates (about four characters a token)
 * @param contextWindow    the model's context window in tokens; 0 when neither the server nor a setting says
 * @param windowSource     where the window came from: {@code llama.cpp /props}, {@code vLLM /v1/models},
 *                         {@code LM Studio /api/v0/models}, {@code Ollama /api/show}, {@code setting}, or
 *                         {@code unknown}
 */
public record PromptMeasure(long promptTokens, long completionTokens, boolean estimated, long contextWindow,
                            String windowSource) {
}
