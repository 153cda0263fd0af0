package dev.agentbus.events.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.InjectedInsight;

import java.util.List;

/**
 * What a session's prompt is made of besides the conversation, folded from the log like the rest of the state: the
 * session's own system prompt, the workspace's context files, the context gauge, and the summary that stands in for
 * the older part of the conversation once it was compacted. {@link ContextFold} assigns it.
 *
 * <p>Positions in the conversation are counts of messages, not seqs: a fork keeps its source's messages with the
 * source's seqs, while its own events are numbered from 1 again.
 *
 * @param preset       the session's preset ({@code system_prompt.changed.v1}), null for none
 * @param systemPrompt the session's own base prompt, null for the installation's
 * @param files        the context files last reported from the workspace, in prompt order
 * @param gauge        how full the context window was on the last model call
 * @param summary      the latest summary of the older conversation, null before the first compaction
 * @param compacting   the summary being written now, null when none
 * @param lastCompactionRequestAt how many messages the conversation had at the last
 *                     {@code context.compaction_requested.v1}, 0 before the first: compaction is only tried again
 *                     once a model call measured the prompt after it
 * @param insights     the user's insights in the system prompt of the current (or last) turn
 *                     ({@code insights.injected.v1}), empty when none
 * @param incognito    the session was created incognito: no insight goes into its prompts, nothing is learned from it
 *                     (both left out of the JSON while empty and false, so the state of a session without them reads
 *                     as it did before)
 */
public record ContextState(String preset, String systemPrompt, List<ContextFile> files, Gauge gauge,
                           Summary summary, Compacting compacting, int lastCompactionRequestAt,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<InjectedInsight> insights,
                           @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean incognito) {

    public static final ContextState EMPTY = new ContextState(null, null, List.of(), Gauge.NONE, null, null, 0,
            List.of(), false);

    public ContextState {
        files = files == null ? List.of() : List.copyOf(files);
        gauge = gauge == null ? Gauge.NONE : gauge;
        insights = insights == null ? List.of() : List.copyOf(insights);
    }

    /** As before insights were injected: none, and not incognito. */
    public ContextState(String preset, String systemPrompt, List<ContextFile> files, Gauge gauge, Summary summary,
                        Compacting compacting, int lastCompactionRequestAt) {
        this(preset, systemPrompt, files, gauge, summary, compacting, lastCompactionRequestAt, List.of(), false);
    }

    /** The same context with these insights in the prompt ({@code insights.injected.v1}). */
    public ContextState withInsights(List<InjectedInsight> injected) {
        return new ContextState(preset, systemPrompt, files, gauge, summary, compacting, lastCompactionRequestAt,
                injected, incognito);
    }

    /** The same context, its memory off ({@code session.created.v1} with {@code incognito}). */
    public ContextState withIncognito(boolean on) {
        return new ContextState(preset, systemPrompt, files, gauge, summary, compacting, lastCompactionRequestAt,
                insights, on);
    }

    /** Whether a summary is being written: the turn's next model call waits for it, and no other is asked for. */
    // Not a bean getter: "isCompacting" would be read as the component "compacting" by JSON.
    public boolean awaitsSummary() {
        return compacting != null;
    }

    /** How many of the conversation's first messages the current summary stands for; 0 when none. */
    public int messagesSummarised() {
        return summary == null ? 0 : summary.messagesCovered();
    }

    /**
     * The context gauge.
     *
     * @param promptTokens     the last model call's prompt tokens (reported, or estimated when {@code estimated})
     * @param completionTokens that call's answer tokens
     * @param window           the context window in tokens, 0 when unknown
     * @param windowSource     where the window came from (a server's endpoint, {@code setting}, {@code unknown})
     * @param measuredAt       how many messages the conversation had once that call's answer joined it; 0 before any
     */
    public record Gauge(long promptTokens, long completionTokens, boolean estimated, long window,
                        String windowSource, int measuredAt) {
        public static final Gauge NONE = new Gauge(0, 0, false, 0, null, 0);
    }

    /**
     * The summary of the first {@code messagesCovered} messages (the pinned first message apart), the last of which
     * has {@code throughSeq}.
     *
     * @param compactions how many times the session was compacted
     */
    public record Summary(String text, long throughSeq, int messagesCovered, int compactions) {
    }

    /** A summary asked for and not yet recorded: {@code context.compaction_requested.v1}. */
    public record Compacting(String requestId, long throughSeq, int messagesCovered, String requestedBy) {
    }
}
