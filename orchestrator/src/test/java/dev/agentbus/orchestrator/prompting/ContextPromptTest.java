package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.modelclient.ChatMessage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The system prompt's parts (base, preset, files, memory, template variables) and the prompt after compaction. */
class ContextPromptTest {
    private static final Instant NOW = Instant.parse("2026-11-23T09:30:00Z"); // a Monday

    private static SessionState fold(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + log.size(), "s", log.size() + 1, NOW, "in", "alice", e));
        }
        return SessionFold.fold("s", log);
    }

    private static String system(SessionState state) {
        return ((ChatMessage.System) new PromptBuilder("Base prompt for {user}.").build(state, NOW, "qwen3")
                .getFirst()).content();
    }

    @Test
    void the_installations_prompt_then_the_preset_then_the_time_the_files_and_the_memory() {
        String system = system(fold(new SessionCreated("t"), new SystemPromptChanged("code", null, "alice"),
                new ContextFilesLoaded(List.of(new ContextFile(".soul.md", "You are terse.", false),
                        new ContextFile("AGENTS.md", "Run mvn test.", true))),
                new MemoryAttached("Prefers Java.", 1)));

        assertThat(system).startsWith("Base prompt for alice.\n\nMode: coding agent, working with alice.");
        assertThat(system.indexOf("The current time is 2026-11-23T09:30:00Z"))
                .isLessThan(system.indexOf("Your personality and standing instructions (.soul.md in the workspace):"
                        + "\nYou are terse."));
        assertThat(system.indexOf(".soul.md")).isLessThan(system.indexOf("Project instructions (AGENTS.md in the "
                + "workspace):\nRun mvn test.\n[… the rest of AGENTS.md was cut"));
        assertThat(system).endsWith("What you remember about this user:\nPrefers Java.");
    }

    @Test
    void the_sessions_own_prompt_replaces_the_installations_and_fills_the_template_variables() {
        String system = system(fold(new SessionCreated("t"), new SystemPromptChanged(null,
                "Today is {day} {date} at {time}; you are {model} for {user}. Known: {memories} {unknown}", "alice"),
                new MemoryAttached("Likes tea.", 1)));

        assertThat(system).startsWith("Today is Monday 2026-11-23 at 09:30 UTC; you are qwen3 for alice. "
                + "Known: Likes tea. {unknown}");
        assertThat(system).doesNotContain("Base prompt").doesNotContain("What you remember about this user");
    }

    @Test
    void after_compaction_the_prompt_has_the_pinned_first_message_the_summary_and_the_newer_messages_only() {
        TokenUsage usage = new TokenUsage(1, 1, 2);
        SessionState state = fold(new SessionCreated("t"),
                new UserMessagePosted("the task"),                                                  // 0, pinned
                new ModelCallCompleted("r1", "m", "old answer", null, List.of(), usage, "stop"),   // 1
                new TurnEnded(TurnOutcome.COMPLETED, "old answer", null),
                new UserMessagePosted("old question"),                                              // 2
                new ModelCallCompleted("r2", "m", "newer answer", null, List.of(), usage, "stop"), // 3
                new TurnEnded(TurnOutcome.COMPLETED, "newer answer", null),
                new ContextCompactionRequested("k1", 5, 3, "asked", "alice"),
                new ContextCompacted("k1", 5, 3, "They asked an old question.", usage),
                new UserMessagePosted("new question"));                                             // 4

        List<ChatMessage> prompt = new PromptBuilder("").build(state, NOW, "m");

        assertThat(prompt.subList(1, prompt.size())).containsExactly(
                new ChatMessage.User("the task"),
                new ChatMessage.User("[agentbus] The earlier part of this conversation was summarised to save "
                        + "context. Summary of it:\nThey asked an old question."),
                ChatMessage.Assistant.text("newer answer"),
                new ChatMessage.User("new question"));
    }

    @Test
    void the_summary_prompt_covers_the_summarised_messages_but_not_the_pinned_one() {
        TokenUsage usage = new TokenUsage(1, 1, 2);
        SessionState state = fold(new SessionCreated("t"), new UserMessagePosted("the task"),
                new ModelCallCompleted("r1", "m", "old answer", null, List.of(), usage, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "old answer", null),
                new UserMessagePosted("newest"),
                new ContextCompactionRequested("k1", 3, 2, "asked", "alice"));

        List<ChatMessage> prompt = SummaryPrompt.build(state);

        assertThat(prompt).hasSize(2);
        String transcript = ((ChatMessage.User) prompt.get(1)).content();
        assertThat(transcript).contains("[agent] old answer").doesNotContain("the task").doesNotContain("newest");
    }
}
