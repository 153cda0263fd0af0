package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.CompactContext;
import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordContextFiles;
import dev.agentbus.events.input.SessionInput.RecordContextSummary;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.SetSystemPrompt;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.PromptMeasure;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ContextCompacted;
import dev.agentbus.events.session.SessionEvent.ContextCompactionFailed;
import dev.agentbus.events.session.SessionEvent.ContextCompactionRequested;
import dev.agentbus.events.session.SessionEvent.ContextFilesLoaded;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** The session's system prompt, its context files, and compacting the conversation: automatic and on request. */
class ContextTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);
    /** Two messages kept word for word: small numbers keep the histories short. */
    private static final ContextLimits KEEP_TWO = new ContextLimits(0.8, 2);

    private static PromptMeasure measured(long promptTokens, long window) {
        return new PromptMeasure(promptTokens, 10, false, window, "llama.cpp /props");
    }

    /** A session with three finished turns: six messages, the last call measured at {@code promptTokens}. */
    private static List<SessionEvent> threeTurns(long promptTokens, long window) {
        List<SessionEvent> events = new ArrayList<>(List.of(new SessionCreated("t")));
        for (int i = 1; i <= 3; i++) {
            events.add(new UserMessagePosted("question " + i));
            events.add(new ModelCallStarted("r" + i, 1));
            events.add(new ModelCallCompleted("r" + i, "m", "answer " + i, null, List.of(), USAGE, "stop",
                    measured(promptTokens, window)));
            events.add(new TurnEnded(TurnOutcome.COMPLETED, "answer " + i, null));
        }
        return events;
    }

    @Nested
    class SystemPrompts {
        @Test
        void a_session_created_with_a_preset_and_a_prompt_records_both_after_its_creation() {
            Decision d = given().whenBy("bob", new CreateSession("t", null, "Code", "Use Java 21."));

            assertThat(d.events()).containsExactly(new SessionCreated("t", PermissionMode.AUTO),
                    new SystemPromptChanged("code", "Use Java 21.", "bob"));
            assertThat(d.state().context().preset()).isEqualTo("code");
            assertThat(d.state().context().systemPrompt()).isEqualTo("Use Java 21.");
        }

        @Test
        void a_session_created_with_an_unknown_preset_is_created_and_the_preset_refused() {
            Decision d = given().when(new CreateSession("t", null, "poetry", null));

            assertThat(d.events()).hasSize(2).first().isInstanceOf(SessionCreated.class);
            assertThat(d.events().get(1)).isInstanceOfSatisfying(InputRejected.class, r -> assertThat(r.reason())
                    .isEqualTo("unknown preset 'poetry'; the presets are research, code, write, analyze, architect"));
            assertThat(d.state().context().preset()).isNull();
        }

        @Test
        void the_system_prompt_is_changed_at_any_time_even_during_a_turn() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                    .when(new SetSystemPrompt("research", null));

            assertThat(d.events()).containsExactly(new SystemPromptChanged("research", null, "alice"));
            assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
        }

        @Test
        void neither_preset_nor_prompt_goes_back_to_the_installations_prompt() {
            Decision d = given(new SessionCreated("t"), new SystemPromptChanged("code", "mine", "alice"))
                    .when(new SetSystemPrompt(" ", ""));

            assertThat(d.events()).containsExactly(new SystemPromptChanged(null, null, "alice"));
            assertThat(d.state().context().preset()).isNull();
            assertThat(d.state().context().systemPrompt()).isNull();
        }

        @Test
        void an_unknown_preset_is_rejected_and_changes_nothing() {
            Decision d = given(new SessionCreated("t"), new SystemPromptChanged("code", null, "alice"))
                    .when(new SetSystemPrompt("nope", null));

            assertThat(d.events()).singleElement().isInstanceOf(InputRejected.class);
            assertThat(d.state().context().preset()).isEqualTo("code");
        }
    }

    @Nested
    class ContextFiles {
        private final List<ContextFile> soul = List.of(new ContextFile(".soul.md", "You are terse.", false));

        @Test
        void files_the_worker_reports_are_recorded_when_they_differ_from_the_recorded_ones() {
            Decision d = given(new SessionCreated("t")).when(new RecordContextFiles(soul));

            assertThat(d.events()).containsExactly(new ContextFilesLoaded(soul));
            assertThat(d.state().context().files()).isEqualTo(soul);
        }

        @Test
        void the_same_files_reported_again_are_ignored() {
            Decision d = given(new SessionCreated("t"), new ContextFilesLoaded(soul)).when(new RecordContextFiles(soul));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).isEqualTo("the context files are the ones recorded");
        }

        @Test
        void files_that_are_gone_are_recorded_as_none() {
            Decision d = given(new SessionCreated("t"), new ContextFilesLoaded(soul))
                    .when(new RecordContextFiles(List.of()));

            assertThat(d.events()).containsExactly(new ContextFilesLoaded(List.of()));
        }
    }

    @Test
    void the_measure_of_the_context_window_is_recorded_with_the_answer_and_shows_in_the_gauge() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                .when(new RecordModelResult("r1", "m", "done", null, List.of(), USAGE, "stop", measured(420, 1000)));

        assertThat(d.events().getFirst()).isEqualTo(new ModelCallCompleted("r1", "m", "done", null, List.of(), USAGE,
                "stop", measured(420, 1000)));
        assertThat(d.state().context().gauge().promptTokens()).isEqualTo(420);
        assertThat(d.state().context().gauge().window()).isEqualTo(1000);
    }

    @Nested
    class AutomaticCompaction {
        @Test
        void a_prompt_that_would_pass_the_share_of_the_window_is_compacted_before_the_model_call() {
            // 900 tokens measured + 10 of answer, in a 1000-token window: past 80 %.
            Decision d = given(threeTurns(900, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new PostUserMessage("question 4"));

            // Seven messages; the last two and the first (pinned) are kept, so messages 2 to 5 are summarised.
            assertThat(d.events()).containsExactly(new UserMessagePosted("question 4"),
                    new ContextCompactionRequested("id-1", 10, 5,
                            "the next prompt (about 912 tokens) would pass 80% of the 1000-token context window", null));
            assertThat(d.effects()).containsExactly(new Effect.Summarise(DeciderFixture.SESSION, "id-1"));
            assertThat(d.state().context().awaitsSummary()).isTrue();
            assertThat(d.state().turn().pendingRequestId()).as("the model call waits for the summary").isNull();
        }

        @Test
        void a_prompt_within_the_share_is_not_compacted() {
            Decision d = given(threeTurns(700, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new PostUserMessage("question 4"));

            assertThat(d.events()).containsExactly(new UserMessagePosted("question 4"),
                    new ModelCallStarted("id-1", 1));
        }

        @Test
        void without_a_known_window_nothing_is_compacted() {
            Decision d = given(threeTurns(900_000, 0).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new PostUserMessage("question 4"));

            assertThat(d.events()).extracting(e -> e.getClass().getSimpleName())
                    .containsExactly("UserMessagePosted", "ModelCallStarted");
        }

        @Test
        void a_compact_at_of_zero_turns_automatic_compaction_off() {
            Decision d = given(threeTurns(900, 1000).toArray(SessionEvent[]::new))
                    .withContextLimits(new ContextLimits(0, 2)).when(new PostUserMessage("question 4"));

            assertThat(d.events()).extracting(e -> e.getClass().getSimpleName())
                    .containsExactly("UserMessagePosted", "ModelCallStarted");
        }

        @Test
        void tool_results_since_the_last_measure_count_towards_the_next_prompt() {
            // 600 measured, then a 1,000-character result (about 250 tokens): 860 of 1000 is past 80 %.
            Decision d = given(threeTurns(100, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .and(new UserMessagePosted("read it"), new ModelCallStarted("r4", 1),
                            new ModelCallCompleted("r4", "m", "", null, List.of(new ToolCallSpec("c1", "read", "{}")),
                                    USAGE, "tool_calls", measured(600, 1000)),
                            new ToolCallRequested("c1", "read", "{}"))
                    .when(new RecordToolResult("c1", true, "x".repeat(1000), null, null, false, 1, false));

            assertThat(d.events()).hasSize(2).last().isInstanceOf(ContextCompactionRequested.class);
        }

        @Test
        void the_summary_is_recorded_and_the_waiting_turn_makes_its_model_call() {
            Decision d = given(threeTurns(900, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .and(new UserMessagePosted("question 4"),
                            new ContextCompactionRequested("k1", 10, 5, "full", null))
                    .when(new RecordContextSummary("k1", " The person asked three questions. ", USAGE, null));

            assertThat(d.events()).containsExactly(
                    new ContextCompacted("k1", 10, 5, "The person asked three questions.", USAGE),
                    new ModelCallStarted("id-1", 1));
            assertThat(d.effects()).containsExactly(new Effect.CallModel(DeciderFixture.SESSION, "id-1"));
            assertThat(d.state().context().summary().text()).isEqualTo("The person asked three questions.");
            assertThat(d.state().context().awaitsSummary()).isFalse();
        }

        @Test
        void a_failed_summary_is_recorded_and_the_turn_goes_on_with_the_whole_prompt_without_asking_again() {
            Decision d = given(threeTurns(900, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .and(new UserMessagePosted("question 4"),
                            new ContextCompactionRequested("k1", 10, 5, "full", null))
                    .when(new RecordContextSummary("k1", null, null, "the summarising call failed: 500"));

            assertThat(d.events()).containsExactly(
                    new ContextCompactionFailed("k1", "the summarising call failed: 500"),
                    new ModelCallStarted("id-1", 1));
        }

        @Test
        void an_empty_summary_counts_as_failed() {
            Decision d = given(new SessionCreated("t"), new ContextCompactionRequested("k1", 3, 2, "asked", "alice"))
                    .when(new RecordContextSummary("k1", "  ", USAGE, null));

            assertThat(d.events()).containsExactly(
                    new ContextCompactionFailed("k1", "the model returned an empty summary"));
        }

        @Test
        void a_summary_nobody_waits_for_is_ignored() {
            Decision d = given(new SessionCreated("t")).when(new RecordContextSummary("k9", "text", USAGE, null));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).isEqualTo("no summary k9 is awaited");
        }

        @Test
        void a_summary_that_arrives_after_its_turn_was_cancelled_is_still_recorded_but_calls_no_model() {
            Decision d = given(threeTurns(900, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .and(new UserMessagePosted("question 4"),
                            new ContextCompactionRequested("k1", 10, 5, "full", null),
                            new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"))
                    .when(new RecordContextSummary("k1", "summary", USAGE, null));

            assertThat(d.events()).containsExactly(new ContextCompacted("k1", 10, 5, "summary", USAGE));
            assertThat(d.effects()).isEmpty();
        }

        @Test
        void after_a_compaction_was_asked_for_the_next_is_only_tried_once_a_model_call_measured_the_prompt() {
            List<SessionEvent> history = new ArrayList<>(threeTurns(900, 1000));
            history.addAll(List.of(new UserMessagePosted("question 4"),
                    new ContextCompactionRequested("k1", 10, 5, "full", null), new ContextCompactionFailed("k1", "boom"),
                    new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user")));

            // The measure on record is from before the failed compaction: the new turn calls the model at once.
            Decision unmeasured = given(history.toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new PostUserMessage("question 5"));
            assertThat(unmeasured.events()).extracting(e -> e.getClass().getSimpleName())
                    .containsExactly("UserMessagePosted", "ModelCallStarted");

            // Once a model call measured the prompt again, still too full, compaction is tried again.
            history.addAll(List.of(new UserMessagePosted("question 5"), new ModelCallStarted("r5", 1),
                    new ModelCallCompleted("r5", "m", "answer 5", null, List.of(), USAGE, "stop",
                            measured(950, 1000)),
                    new TurnEnded(TurnOutcome.COMPLETED, "answer 5", null)));
            Decision measuredAgain = given(history.toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new PostUserMessage("question 6"));
            assertThat(measuredAgain.events().getLast()).isInstanceOf(ContextCompactionRequested.class);
        }
    }

    @Nested
    class CompactionOnRequest {
        @Test
        void a_person_compacts_an_idle_session_and_the_request_says_who() {
            Decision d = given(threeTurns(100, 1000).toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .whenBy("bob", new CompactContext());

            // Six messages: the last two and the first are kept, messages 2 to 4 summarised (the 4th has seq 8).
            assertThat(d.events()).containsExactly(
                    new ContextCompactionRequested("id-1", 8, 4, "requested by bob", "bob"));
            assertThat(d.effects()).containsExactly(new Effect.Summarise(DeciderFixture.SESSION, "id-1"));
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
        }

        @Test
        void during_a_turn_it_is_rejected() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("go"), new ModelCallStarted("r1", 1))
                    .when(new CompactContext());

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(
                    r.reason()).startsWith("a turn is running"));
        }

        @Test
        void while_a_summary_is_being_written_it_is_rejected() {
            Decision d = given(threeTurns(100, 1000).toArray(SessionEvent[]::new))
                    .and(new ContextCompactionRequested("k1", 8, 4, "asked", "alice"))
                    .withContextLimits(KEEP_TWO).when(new CompactContext());

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(
                    r.reason()).isEqualTo("a summary is being written already"));
        }

        @Test
        void with_nothing_new_to_summarise_it_is_rejected() {
            Decision d = given(new SessionCreated("t"), new UserMessagePosted("hi"), new ModelCallStarted("r1", 1),
                    new ModelCallCompleted("r1", "m", "hello", null, List.of(), USAGE, "stop"),
                    new TurnEnded(TurnOutcome.COMPLETED, "hello", null)).withContextLimits(KEEP_TWO)
                    .when(new CompactContext());

            assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(
                    r.reason()).startsWith("nothing to compact"));
        }

        @Test
        void a_second_compaction_covers_only_what_the_first_did_not() {
            List<SessionEvent> history = new ArrayList<>(threeTurns(100, 1000));
            history.add(new ContextCompactionRequested("k1", 8, 4, "asked", "alice"));
            history.add(new ContextCompacted("k1", 8, 4, "first summary", USAGE));
            Decision again = given(history.toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new CompactContext());
            assertThat(again.events()).singleElement().isInstanceOf(InputRejected.class);

            history.addAll(List.of(new UserMessagePosted("question 4"), new ModelCallStarted("r4", 1),
                    new ModelCallCompleted("r4", "m", "answer 4", null, List.of(), USAGE, "stop"),
                    new TurnEnded(TurnOutcome.COMPLETED, "answer 4", null)));
            Decision d = given(history.toArray(SessionEvent[]::new)).withContextLimits(KEEP_TWO)
                    .when(new CompactContext());
            assertThat(d.events()).singleElement().isInstanceOfSatisfying(ContextCompactionRequested.class,
                    r -> assertThat(r.messagesCovered()).isEqualTo(6));
        }
    }

    @Test
    void a_cut_never_keeps_a_tool_result_without_the_answer_that_asked_for_it() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("q"), new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", "first", null, List.of(), USAGE, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "first", null),
                new UserMessagePosted("list"), new ModelCallStarted("r2", 1),
                new ModelCallCompleted("r2", "m", "", null, List.of(new ToolCallSpec("c1", "ls", "{}")), USAGE,
                        "tool_calls"),
                new ToolCallRequested("c1", "ls", "{}"),
                new ToolCallCompleted("c1", true, "a", null, null, false, 1, false),
                new ModelCallStarted("r3", 2),
                new ModelCallCompleted("r3", "m", "done", null, List.of(), USAGE, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "done", null))
                .withContextLimits(KEEP_TWO).when(new CompactContext());

        // Messages: q, first, list, [ls call], [ls result], done. Keeping two would start at the result; the cut
        // moves back so the call and its result stay together: q (pinned), first and list are summarised.
        assertThat(d.events()).singleElement().isInstanceOfSatisfying(ContextCompactionRequested.class,
                r -> assertThat(r.messagesCovered()).isEqualTo(3));
    }
}
