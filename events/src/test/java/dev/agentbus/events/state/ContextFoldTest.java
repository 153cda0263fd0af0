package dev.agentbus.events.state;

import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PromptMeasure;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How the context folds: system prompt, files, gauge, compaction; and what a fork keeps of it. */
class ContextFoldTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private static final TokenUsage USAGE = new TokenUsage(300, 20, 320);

    private static SessionState fold(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + log.size(), "s", log.size() + 1, T, "in", "alice", e));
        }
        return SessionFold.fold("s", log);
    }

    @Test
    void the_system_prompt_and_the_files_are_assigned_and_blank_means_none() {
        List<ContextFile> files = List.of(new ContextFile("AGENTS.md", "Use tabs.", false));
        SessionState s = fold(new SessionCreated("t"), new SystemPromptChanged("code", "  ", "alice"),
                new ContextFilesLoaded(files));

        assertThat(s.context().preset()).isEqualTo("code");
        assertThat(s.context().systemPrompt()).isNull();
        assertThat(s.context().files()).isEqualTo(files);
    }

    @Test
    void the_gauge_follows_the_measure_of_each_answer_or_its_usage_in_older_logs() {
        SessionState measured = fold(new SessionCreated("t"), new UserMessagePosted("q"),
                new ModelCallCompleted("r1", "m", "a", null, List.of(), USAGE, "stop",
                        new PromptMeasure(310, 22, true, 4096, "Ollama /api/show")));
        assertThat(measured.context().gauge()).isEqualTo(new ContextState.Gauge(310, 22, true, 4096,
                "Ollama /api/show", 2));

        SessionState older = fold(new SessionCreated("t"), new UserMessagePosted("q"),
                new ModelCallCompleted("r1", "m", "a", null, List.of(), USAGE, "stop"));
        assertThat(older.context().gauge()).isEqualTo(new ContextState.Gauge(300, 20, false, 0, null, 2));
    }

    @Test
    void a_requested_compaction_is_pending_until_its_summary_or_its_failure_and_messages_are_never_dropped() {
        SessionState pending = fold(new SessionCreated("t"), new UserMessagePosted("q1"), new UserMessagePosted("q2"),
                new ContextCompactionRequested("k1", 3, 2, "full", null));
        assertThat(pending.context().awaitsSummary()).isTrue();
        assertThat(pending.context().lastCompactionRequestAt()).isEqualTo(2);

        SessionState compacted = fold(new SessionCreated("t"), new UserMessagePosted("q1"),
                new UserMessagePosted("q2"), new ContextCompactionRequested("k1", 3, 2, "full", null),
                new ContextCompacted("k1", 3, 2, "summary", USAGE));
        assertThat(compacted.context().summary()).isEqualTo(new ContextState.Summary("summary", 3, 2, 1));
        assertThat(compacted.context().awaitsSummary()).isFalse();
        assertThat(compacted.messages()).hasSize(2);

        SessionState failed = fold(new SessionCreated("t"), new ContextCompactionRequested("k1", 3, 2, "full", null),
                new ContextCompactionFailed("k1", "boom"));
        assertThat(failed.context().awaitsSummary()).isFalse();
        assertThat(failed.context().summary()).isNull();
    }

    @Test
    void a_fork_keeps_the_sources_context_but_not_a_summary_being_written_there() {
        SessionState source = fold(new SessionCreated("t"), new SystemPromptChanged("write", null, "alice"),
                new UserMessagePosted("q"), new ContextCompactionRequested("k1", 3, 1, "asked", "alice"));

        SessionState fork = fold(new SessionForked("s", 4, null, "fork", source));

        assertThat(fork.context().preset()).isEqualTo("write");
        assertThat(fork.context().awaitsSummary()).isFalse();
    }
}
