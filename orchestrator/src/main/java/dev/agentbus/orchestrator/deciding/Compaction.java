package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.state.ContextState;
import dev.agentbus.events.state.Message;
import dev.agentbus.events.state.SessionState;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which part of the conversation a compaction summarises, and when the decider compacts on its own. Pure; the prompt
 * builder asks the same questions, so the prompt leaves out exactly what the summary stands for.
 *
 * <p>Kept word for word: the system prompt (never part of the conversation), the pinned message and the newest
 * {@link ContextLimits#keepRecentMessages()} messages. Agentbus has no way yet to pin a message by hand, so the
 * pinned message is the session's first user message: it usually states the task, and a summary of it loses what a
 * person asked for in their own words. A model's answer and its tool results stay together: the newest kept message
 * is never a tool result whose call was summarised.
 */
public final class Compaction {
    /** Roughly four characters a token, the usual rule of thumb for English text and code. */
    static final int CHARS_PER_TOKEN = 4;

    private Compaction() {
    }

    /** What one compaction would cover: the first {@code messagesCovered} messages, the last of which has that seq. */
    public record Cut(int messagesCovered, long throughSeq) {
    }

    /** The position of the pinned message in the conversation: the first user message; -1 while there is none. */
    public static int pinnedIndex(List<Message> messages) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof Message.User) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The messages a compaction now would summarise: all but the pinned one and the newest {@code keepRecent}, and
     * not fewer than are summarised already. Empty when that leaves nothing new to summarise.
     */
    public static Optional<Cut> cut(SessionState state, int keepRecent) {
        List<Message> messages = state.messages();
        int covered = messages.size() - keepRecent;
        // Never keep a tool result without the answer that asked for it: the cut moves back to that answer.
        while (covered > 0 && covered < messages.size() && messages.get(covered) instanceof Message.Tool) {
            covered--;
        }
        int already = state.context().messagesSummarised();
        int pinned = pinnedIndex(messages);
        int fresh = 0;
        for (int i = already; i < covered; i++) {
            if (i != pinned) {
                fresh++;
            }
        }
        if (fresh == 0) {
            return Optional.empty();
        }
        return Optional.of(new Cut(covered, messages.get(covered - 1).seq()));
    }

    /**
     * The next prompt's size in tokens: the last call's prompt and answer as measured, plus what joined the
     * conversation since (tool results, notices, a message), estimated from its characters.
     */
    static long estimateNextPrompt(SessionState state) {
        ContextState.Gauge gauge = state.context().gauge();
        long chars = 0;
        List<Message> messages = state.messages();
        for (int i = Math.max(0, gauge.measuredAt()); i < messages.size(); i++) {
            chars += switch (messages.get(i)) {
                case Message.User u -> length(u.text());
                case Message.Notice n -> length(n.text());
                case Message.Tool t -> length(t.content());
                case Message.Assistant a -> length(a.content());
            };
        }
        return gauge.promptTokens() + gauge.completionTokens() + chars / CHARS_PER_TOKEN;
    }

    /**
     * Whether the decider compacts before the next model call, and why: the window is known, the next prompt would
     * pass its share, a model call measured the prompt since the last compaction was asked for (so a compaction that
     * failed, or left the prompt as large, is not asked for again and again), and there is something to summarise.
     */
    static Optional<String> automatic(SessionState state, ContextLimits limits) {
        ContextState c = state.context();
        ContextState.Gauge gauge = c.gauge();
        if (limits.compactAt() <= 0 || gauge.window() <= 0 || c.awaitsSummary()
                || gauge.measuredAt() <= c.lastCompactionRequestAt()) {
            return Optional.empty();
        }
        long next = estimateNextPrompt(state);
        long threshold = (long) (gauge.window() * limits.compactAt());
        if (next <= threshold) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT,
                "the next prompt (about %d tokens) would pass %.0f%% of the %d-token context window", next,
                limits.compactAt() * 100, gauge.window()));
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }
}
