package dev.agentbus.events.state;

import dev.agentbus.events.session.PromptMeasure;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.TokenUsage;

/**
 * The part of the fold that assigns {@link ContextState}, kept apart from {@link SessionFold} so the prompt's parts
 * change in one place. Pure and assigning only, like the fold: the decider decided everything these events say.
 */
final class ContextFold {
    private ContextFold() {
    }

    static ContextState systemPromptSet(ContextState c, SystemPromptChanged e) {
        return new ContextState(blankToNull(e.preset()), blankToNull(e.systemPrompt()), c.files(), c.gauge(),
                c.summary(), c.compacting(), c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    static ContextState filesLoaded(ContextState c, ContextFilesLoaded e) {
        return new ContextState(c.preset(), c.systemPrompt(), e.files(), c.gauge(), c.summary(), c.compacting(),
                c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    /** A model call's answer: the gauge shows its measure; without one (older logs), what the server reported. */
    static ContextState measured(ContextState c, PromptMeasure m, TokenUsage usage, int messages) {
        ContextState.Gauge gauge = m != null
                ? new ContextState.Gauge(m.promptTokens(), m.completionTokens(), m.estimated(), m.contextWindow(),
                        m.windowSource(), messages)
                : new ContextState.Gauge(usage.promptTokens(), usage.completionTokens(), false, c.gauge().window(),
                        c.gauge().windowSource(), messages);
        return new ContextState(c.preset(), c.systemPrompt(), c.files(), gauge, c.summary(), c.compacting(),
                c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    static ContextState compactionRequested(ContextState c, ContextCompactionRequested e, int messages) {
        return new ContextState(c.preset(), c.systemPrompt(), c.files(), c.gauge(), c.summary(),
                new ContextState.Compacting(e.requestId(), e.throughSeq(), e.messagesCovered(), e.requestedBy()),
                messages, c.insights(), c.incognito());
    }

    static ContextState compacted(ContextState c, ContextCompacted e) {
        int count = c.summary() == null ? 1 : c.summary().compactions() + 1;
        return new ContextState(c.preset(), c.systemPrompt(), c.files(), c.gauge(),
                new ContextState.Summary(e.summary(), e.throughSeq(), e.messagesCovered(), count), null,
                c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    static ContextState compactionFailed(ContextState c, ContextCompactionFailed e) {
        return new ContextState(c.preset(), c.systemPrompt(), c.files(), c.gauge(), c.summary(), null,
                c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    /**
     * A fork keeps the source's prompt (system prompt, files, summary, gauge) but not a summary still being written
     * there: the fork never asked for it, so no answer will come to it.
     */
    static ContextState forked(ContextState from) {
        ContextState c = from == null ? ContextState.EMPTY : from;
        return new ContextState(c.preset(), c.systemPrompt(), c.files(), c.gauge(), c.summary(), null,
                c.lastCompactionRequestAt(), c.insights(), c.incognito());
    }

    static ContextState insightsInjected(ContextState c, InsightsInjected e) {
        return c.withInsights(e.insights());
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
