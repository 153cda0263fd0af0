package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CancelTurn;
import dev.agentbus.events.input.SessionInput.DeleteSession;
import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RecordSubAgentResult;
import dev.agentbus.events.input.SessionInput.StartSubAgent;
import dev.agentbus.orchestrator.deciding.delegating.ChildStart;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SubAgentOf;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionStatus;
import dev.agentbus.events.state.SubAgents;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import dev.agentbus.modelclient.ToolDefinition;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.SESSION;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.asked;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.call;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.calls;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.resultOf;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.turnAwaiting;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sub-agents in the decider (rules in {@code deciding/delegating}): given a parent's or a child's log, when the model
 * calls {@code task}, a child starts, ends or is cancelled, then these events are recorded and these inputs go to the
 * other session in the same transaction ({@link Decision#outgoing()}).
 */
class SubAgentsTest {
    private static final String FIX_TESTS = "{\"description\":\"fix the tests\",\"prompt\":\"Make the tests pass.\"}";
    private static final String WRITE_DOCS = "{\"description\":\"write docs\",\"prompt\":\"Document the API.\"}";

    /** The parent after its model asked for two tasks, both started (children id-1 and id-2). */
    private static DeciderFixture parentWaitingForTwo() {
        return turnAwaiting().and(
                asked("r1", call("t1", "task", FIX_TESTS), call("t2", "task", WRITE_DOCS)),
                new SubAgentStarted("t1", "child-1", "fix the tests", SubAgentLimits.FILE_TOOLS, 10),
                new SubAgentStarted("t2", "child-2", "write docs", SubAgentLimits.FILE_TOOLS, 10));
    }

    /** A child as its parent's start created it, its model call under way. */
    private static DeciderFixture childRunning() {
        return given(new SessionCreated("Sub-agent: fix the tests", PermissionMode.AUTO,
                        new SubAgentOf("parent-1", "t1", List.of("read", "grep"), 3)),
                new UserMessagePosted("Make the tests pass."), new ModelCallStarted("r1", 1));
    }

    private static RecordModelResult answer(String requestId, String text) {
        return new RecordModelResult(requestId, "m", text, null, List.of(), TokenUsage.ZERO, "stop");
    }

    @Nested
    class The_parent {
        @Test
        void the_catalogue_offers_task_to_the_model_as_a_tool_the_orchestrator_answers() {
            var spec = ToolCatalog.find("task").orElseThrow();
            assertThat(spec.executor()).isEqualTo(dev.agentbus.events.tools.ToolSpec.Executor.ORCHESTRATOR);
            assertThat(ToolCatalog.workerToolNames()).doesNotContain("task");
        }

        @Test
        void two_task_calls_start_two_children_in_the_same_transaction_and_the_turn_waits_for_both() {
            Decision d = turnAwaiting().when(calls("r1", call("t1", "task", FIX_TESTS), call("t2", "task", WRITE_DOCS)));

            assertThat(d.events()).filteredOn(e -> e instanceof SubAgentStarted).containsExactly(
                    new SubAgentStarted("t1", "id-1", "fix the tests", SubAgentLimits.FILE_TOOLS, 10),
                    new SubAgentStarted("t2", "id-2", "write docs", SubAgentLimits.FILE_TOOLS, 10));
            assertThat(d.outgoing()).containsExactly(
                    new Outgoing("id-1", new StartSubAgent(SESSION, "t1", "Sub-agent: fix the tests",
                            "Make the tests pass.", SubAgentLimits.FILE_TOOLS, 10, PermissionMode.AUTO)),
                    new Outgoing("id-2", new StartSubAgent(SESSION, "t2", "Sub-agent: write docs",
                            "Document the API.", SubAgentLimits.FILE_TOOLS, 10, PermissionMode.AUTO)));
            assertThat(d.events()).as("nothing for a worker").noneMatch(e -> e instanceof ToolCallRequested);
            assertThat(d.effects()).as("the model waits for the children's results").isEmpty();
            assertThat(d.state().turn().openToolCalls()).containsExactly("t1", "t2");
            assertThat(d.state().subAgents().running()).extracting(SubAgents.Child::sessionId)
                    .containsExactly("id-1", "id-2");
        }

        @Test
        void an_incognito_parents_child_is_incognito_too_so_nothing_of_the_task_reaches_memory() {
            Decision d = given(new SessionCreated("t", PermissionMode.AUTO, null, true), new UserMessagePosted("go"),
                    new ModelCallStarted("r1", 1)).when(calls("r1", call("t1", "task", FIX_TESTS)));

            StartSubAgent start = (StartSubAgent) d.outgoing().getFirst().input();
            assertThat(start.incognito()).isTrue();
            assertThat(ChildStart.events(start).getFirst()).isInstanceOfSatisfying(SessionCreated.class,
                    created -> assertThat(created.incognito()).isTrue());
        }

        @Test
        void a_child_gets_the_parents_permission_mode_so_it_may_do_nothing_its_parent_may_not() {
            Decision d = given(new SessionCreated("t", PermissionMode.NORMAL), new UserMessagePosted("go"),
                    new ModelCallStarted("r1", 1)).when(calls("r1", call("t1", "task", FIX_TESTS)));

            assertThat(((StartSubAgent) d.outgoing().getFirst().input()).mode()).isEqualTo(PermissionMode.NORMAL);
        }

        @Test
        void the_call_may_choose_the_childs_tools_and_ask_for_fewer_model_calls_but_never_more_than_the_setting() {
            Decision d = turnAwaiting().withSubAgentLimits(new SubAgentLimits(3, 5, SubAgentLimits.FILE_TOOLS))
                    .when(calls("r1",
                            call("t1", "task", "{\"prompt\":\"look\",\"tools\":[\"read\",\"shell\"],\"max_iterations\":2}"),
                            call("t2", "task", "{\"prompt\":\"look more\",\"max_iterations\":50}")));

            assertThat(d.events()).filteredOn(e -> e instanceof SubAgentStarted).containsExactly(
                    new SubAgentStarted("t1", "id-1", "look", List.of("read", "shell"), 2),
                    new SubAgentStarted("t2", "id-2", "look more", SubAgentLimits.FILE_TOOLS, 5));
        }

        @Test
        void a_child_never_gets_more_model_calls_than_the_installation_allows_a_turn() {
            Decision d = turnAwaiting().withMaxIterations(4).when(calls("r1", call("t1", "task", FIX_TESTS)));

            assertThat(((SubAgentStarted) d.events().get(1)).maxIterations()).isEqualTo(4);
        }

        @Test
        void calls_over_the_cap_are_answered_with_an_error_and_start_nothing() {
            Decision d = turnAwaiting().withSubAgentLimits(new SubAgentLimits(1, 10, SubAgentLimits.FILE_TOOLS))
                    .when(calls("r1", call("t1", "task", FIX_TESTS), call("t2", "task", WRITE_DOCS)));

            assertThat(d.outgoing()).extracting(Outgoing::sessionId).containsExactly("id-1");
            assertThat(resultOf(d, "t2").ok()).isFalse();
            assertThat(resultOf(d, "t2").error()).isEqualTo("not started: 1 sub-agents are running already, the most "
                    + "one session may run at once; call task again once one of them has answered");
            assertThat(d.state().turn().openToolCalls()).as("the first still runs").containsExactly("t1");
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "{\"description\":\"no prompt\"}",
                "{\"prompt\":\"x\",\"tools\":\"read\"}",
                "{\"prompt\":\"x\",\"tools\":[\"nope\"]}",
                "{\"prompt\":\"x\",\"tools\":[\"task\"]}",
                "{\"prompt\":\"x\",\"tools\":[\"upload\"]}",
                "{\"prompt\":\"x\",\"max_iterations\":0}"})
        void a_bad_call_is_answered_with_what_to_fix_and_the_model_goes_on(String args) {
            Decision d = turnAwaiting().when(calls("r1", call("t1", "task", args)));

            assertThat(resultOf(d, "t1").ok()).isFalse();
            assertThat(resultOf(d, "t1").error()).isNotBlank();
            assertThat(d.outgoing()).isEmpty();
            assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
        }

        @Test
        void the_first_childs_result_is_recorded_and_the_turn_still_waits_for_the_second() {
            Decision d = parentWaitingForTwo().when(new RecordSubAgentResult("t1", "child-1", TurnOutcome.COMPLETED,
                    "All 12 tests pass.", null));

            assertThat(d.events()).containsExactly(
                    new SubAgentFinished("t1", "child-1", TurnOutcome.COMPLETED),
                    new ToolCallCompleted("t1", true, "All 12 tests pass.", null, null, false, 0, false));
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().turn().openToolCalls()).containsExactly("t2");
        }

        @Test
        void the_last_childs_result_lets_the_model_go_on_with_both_answers() {
            DeciderFixture f = parentWaitingForTwo().and(
                    new SubAgentFinished("t1", "child-1", TurnOutcome.COMPLETED),
                    new ToolCallCompleted("t1", true, "All 12 tests pass.", null, null, false, 0, false));

            Decision d = f.when(new RecordSubAgentResult("t2", "child-2", TurnOutcome.COMPLETED, "Docs written.", null));

            assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
            assertThat(d.state().toolCalls().get("t2").output()).isEqualTo("Docs written.");
            assertThat(d.state().subAgents().running()).isEmpty();
        }

        @Test
        void a_child_that_did_not_complete_gives_a_failed_result_that_says_why() {
            Decision d = parentWaitingForTwo().when(new RecordSubAgentResult("t1", "child-1",
                    TurnOutcome.ITERATION_CAP, null, "stopped after 3 model calls in one turn (the iteration cap)"));

            assertThat(resultOf(d, "t1").ok()).isFalse();
            assertThat(resultOf(d, "t1").error()).isEqualTo("the sub-agent child-1 did not finish: iteration cap "
                    + "(stopped after 3 model calls in one turn (the iteration cap))");
        }

        @Test
        void a_result_delivered_twice_is_recorded_once() {
            DeciderFixture f = parentWaitingForTwo().and(
                    new SubAgentFinished("t1", "child-1", TurnOutcome.COMPLETED),
                    new ToolCallCompleted("t1", true, "done", null, null, false, 0, false));

            Decision d = f.when(new RecordSubAgentResult("t1", "child-1", TurnOutcome.COMPLETED, "done", null));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).contains("child-1");
        }

        @Test
        void a_result_from_a_session_that_is_not_the_calls_child_is_ignored() {
            Decision d = parentWaitingForTwo().when(new RecordSubAgentResult("t1", "someone-else",
                    TurnOutcome.COMPLETED, "trust me", null));

            assertThat(d.events()).isEmpty();
        }

        @Test
        void cancelling_the_parent_cancels_every_running_child() {
            Decision d = parentWaitingForTwo().when(new CancelTurn());

            assertThat(d.events()).last().isInstanceOf(TurnEnded.class);
            assertThat(d.outgoing()).containsExactly(new Outgoing("child-1", new CancelTurn()),
                    new Outgoing("child-2", new CancelTurn()));
        }

        @Test
        void deleting_the_parent_cancels_its_running_children_too() {
            Decision d = parentWaitingForTwo().when(new DeleteSession());

            assertThat(d.outgoing()).extracting(Outgoing::sessionId).containsExactly("child-1", "child-2");
        }

        @Test
        void a_cancelled_childs_result_is_still_recorded_after_the_turn_ended_and_calls_no_model() {
            DeciderFixture f = parentWaitingForTwo().and(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"));

            Decision d = f.when(new RecordSubAgentResult("t1", "child-1", TurnOutcome.CANCELLED, null,
                    "the parent's turn was cancelled"));

            assertThat(d.events()).hasSize(2);
            assertThat(d.effects()).isEmpty();
            assertThat(d.state().status()).isEqualTo(SessionStatus.IDLE);
        }
    }

    @Nested
    class The_child {
        @Test
        void its_start_creates_it_linked_to_its_parent_and_starts_its_turn_at_once() {
            Decision d = given().when(new StartSubAgent("parent-1", "t1", "Sub-agent: fix the tests",
                    "Make the tests pass.", List.of("read", "grep"), 3, PermissionMode.NORMAL));

            assertThat(d.events().get(0)).isEqualTo(new SessionCreated("Sub-agent: fix the tests",
                    PermissionMode.NORMAL, new SubAgentOf("parent-1", "t1", List.of("read", "grep"), 3)));
            assertThat(d.events().get(1)).isEqualTo(new UserMessagePosted("Make the tests pass."));
            assertThat(d.events()).last().isInstanceOf(ModelCallStarted.class);
            assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
            assertThat(d.outgoing()).isEmpty();
        }

        @Test
        void a_start_delivered_again_changes_nothing() {
            Decision d = childRunning().when(new StartSubAgent("parent-1", "t1", "again", "Make the tests pass.",
                    List.of("read"), 3, PermissionMode.AUTO));

            assertThat(d.events()).isEmpty();
            assertThat(d.ignoredBecause()).contains("has started already");
        }

        @Test
        void its_model_is_offered_only_its_own_tools() {
            assertThat(PromptBuilder.tools(childRunning().state())).extracting(ToolDefinition::name)
                    .containsExactly("read", "grep");
            assertThat(PromptBuilder.tools(turnAwaiting().state())).extracting(ToolDefinition::name)
                    .contains("task", "shell");
        }

        @Test
        void a_call_to_a_tool_it_was_not_given_is_refused_without_running() {
            Decision d = childRunning().when(calls("r1", call("c1", "shell", "{\"command\":\"rm -rf .\"}"),
                    call("c2", "read", "{\"path\":\"a.txt\"}")));

            assertThat(resultOf(d, "c1").ok()).isFalse();
            assertThat(resultOf(d, "c1").error()).isEqualTo("'shell' is not one of this sub-agent's tools; it may use "
                    + "[read, grep]");
            assertThat(d.events()).filteredOn(e -> e instanceof ToolCallRequested)
                    .extracting(e -> ((ToolCallRequested) e).callId()).containsExactly("c2");
        }

        @Test
        void it_stops_at_its_own_iteration_cap() {
            DeciderFixture f = childRunning().and(
                    asked("r1", call("c1", "read", "{\"path\":\"a\"}")),
                    new ToolCallCompleted("c1", true, "a", null, null, false, 0, false),
                    new ModelCallStarted("r2", 2),
                    asked("r2", call("c2", "read", "{\"path\":\"b\"}")),
                    new ToolCallCompleted("c2", true, "b", null, null, false, 0, false),
                    new ModelCallStarted("r3", 3),
                    asked("r3", call("c3", "read", "{\"path\":\"c\"}")),
                    new ToolCallRequested("c3", "read", "{\"path\":\"c\"}"));

            Decision d = f.when(new dev.agentbus.events.input.SessionInput.RecordToolResult("c3", true, "c", null,
                    null, false, 0, false));

            assertThat(d.events()).last().isEqualTo(new TurnEnded(TurnOutcome.ITERATION_CAP, null,
                    "stopped after 3 model calls in one turn (the iteration cap)"));
            assertThat(d.outgoing()).singleElement().extracting(Outgoing::sessionId).isEqualTo("parent-1");
        }

        @Test
        void its_final_answer_goes_to_its_parent_with_the_turns_end() {
            Decision d = childRunning().when(answer("r1", "All 12 tests pass."));

            assertThat(d.events()).last().isEqualTo(new TurnEnded(TurnOutcome.COMPLETED, "All 12 tests pass.", null));
            assertThat(d.outgoing()).containsExactly(new Outgoing("parent-1", new RecordSubAgentResult("t1",
                    SESSION, TurnOutcome.COMPLETED, "All 12 tests pass.", null)));
        }

        @Test
        void a_cancel_from_its_parent_ends_it_and_its_parent_hears_so() {
            Decision d = childRunning().when(new CancelTurn());

            assertThat(d.outgoing()).singleElement().satisfies(o -> {
                assertThat(o.sessionId()).isEqualTo("parent-1");
                assertThat(((RecordSubAgentResult) o.input()).outcome()).isEqualTo(TurnOutcome.CANCELLED);
            });
        }

        @Test
        void deleting_a_running_child_tells_its_parent_it_was_cancelled() {
            Decision d = childRunning().when(new DeleteSession());

            assertThat(d.outgoing()).singleElement().satisfies(o -> {
                assertThat(o.sessionId()).isEqualTo("parent-1");
                assertThat(((RecordSubAgentResult) o.input()).outcome()).isEqualTo(TurnOutcome.CANCELLED);
            });
        }

        @Test
        void a_later_turn_a_person_starts_in_the_child_is_not_reported_to_the_parent() {
            DeciderFixture f = childRunning().and(
                    new dev.agentbus.events.session.SessionEvent.ModelCallCompleted("r1", "m", "done", null,
                            List.of(), TokenUsage.ZERO, "stop"),
                    new TurnEnded(TurnOutcome.COMPLETED, "done", null),
                    new UserMessagePosted("and now?"), new ModelCallStarted("r2", 1));

            Decision d = f.when(answer("r2", "nothing more"));

            assertThat(d.events()).last().isInstanceOf(TurnEnded.class);
            assertThat(d.outgoing()).isEmpty();
        }

        @Test
        void a_child_cannot_start_children_of_its_own() {
            DeciderFixture f = given(new SessionCreated("c", PermissionMode.AUTO,
                    new SubAgentOf("parent-1", "t1", List.of("read"), 3)), new UserMessagePosted("go"),
                    new ModelCallStarted("r1", 1));

            Decision d = f.when(calls("r1", call("t9", "task", FIX_TESTS)));

            assertThat(resultOf(d, "t9").ok()).isFalse();
            assertThat(d.outgoing()).isEmpty();
        }
    }
}
