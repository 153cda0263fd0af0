package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.state.ContextState;

import java.util.List;

/**
 * A session's context ({@code context} in {@code GET /api/v1/sessions/{id}}): how full the model's window is, what
 * the system prompt is made of, and what the compacted conversation's summary says. See docs/api.md#context.
 *
 * @param tokensUsed      the last model call's prompt tokens; 0 before the first call
 * @param tokensEstimated the server reported no usage, so {@code tokensUsed} is an estimate (about four characters a
 *                        token)
 * @param window          the model's context window in tokens; absent when unknown
 * @param windowSource    where the window came from (a server's endpoint, or {@code setting}); absent when unknown
 * @param usedShare       {@code tokensUsed / window}, 0 to 1; absent when the window is unknown
 * @param preset          the session's preset; absent when none
 * @param systemPrompt    the session's own base prompt; absent when it uses the installation's
 * @param files           the workspace's context files in the system prompt (name, size, whether cut)
 * @param summary         the summary standing in for the older conversation; absent before the first compaction
 * @param compacting      a summary is being written now
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Context(long tokensUsed, boolean tokensEstimated, Long window, String windowSource, Double usedShare,
                      String preset, String systemPrompt, List<File> files, Summary summary, boolean compacting) {

    static Context of(ContextState c) {
        ContextState.Gauge g = c.gauge();
        boolean known = g.window() > 0;
        return new Context(g.promptTokens(), g.estimated(), known ? g.window() : null,
                known ? g.windowSource() : null,
                known ? Math.min(1.0, Math.round(1000.0 * g.promptTokens() / g.window()) / 1000.0) : null,
                c.preset(), c.systemPrompt(),
                c.files().stream().map(f -> new File(f.name(), f.content().length(), f.truncated())).toList(),
                c.summary() == null ? null : new Summary(c.summary().text(), c.summary().throughSeq(),
                        c.summary().messagesCovered(), c.summary().compactions()),
                c.awaitsSummary());
    }

    /** A context file: its name in the workspace, the characters of it in the prompt, and whether it was cut. */
    public record File(String name, int chars, boolean truncated) {
    }

    /**
     * The summary of the conversation's first {@code messagesCovered} messages (the first user message is kept word
     * for word), the last of which has {@code throughSeq}; {@code compactions} counts how often the session was
     * compacted.
     */
    public record Summary(String text, long throughSeq, int messagesCovered, int compactions) {
    }
}
