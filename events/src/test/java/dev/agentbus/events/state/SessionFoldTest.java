package dev.agentbus.events.state;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentbus.events.Samples;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.NotificationPosted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UnknownEvent;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** The pure fold, given events / when an event / then the state. */
class SessionFoldTest {

    // ---- creating and starting turns -----------------------------------------------------------------------------

    @Test
    void a_new_session_does_not_exist_until_it_is_created() {
        SessionState initial = SessionState.initial("ses-1");

        assertThat(initial.exists()).isFalse();
        assertThat(initial.status()).isEqualTo(SessionStatus.NEW);
        assertThat(initial.lastSeq()).isZero();
        assertThat(initial.messages()).isEmpty();
        assertThat(initial.usage()).isEqualTo(TokenUsage.ZERO);
        assertThat(initial.memory()).isEmpty();
    }

    @Test
    void a_created_session_is_idle_with_its_title_owner_and_creation_time() {
        given()
                .when(new SessionCreated("hello file"))
                .then(s -> {
                    assertThat(s.exists()).isTrue();
                    assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
                    assertThat(s.title()).isEqualTo("hello file");
                    assertThat(s.userId()).isEqualTo(FoldScenario.USER);
                    assertThat(s.createdAt()).isEqualTo(FoldScenario.time(1));
                    assertThat(s.updatedAt()).isEqualTo(FoldScenario.time(1));
                    assertThat(s.lastSeq()).isEqualTo(1);
                    assertThat(s.turn()).isNull();
                    assertThat(s.turns()).isZero();
                });
    }

    @Test
    void a_file_a_person_transfers_stays_in_the_log_but_only_a_note_of_it_goes_into_the_state() {
        String base64 = "QUJD".repeat(50_000);
        given(created(), new ToolCallRequested("user-1", "upload",
                "{\"path\":\"in.bin\",\"content_base64\":\"" + base64 + "\"}", null, true))
                .when(new ToolCallCompleted("user-1", true, "uploaded in.bin", null, null, false, 1, false))
                .then(s -> {
                    ToolCallView upload = s.toolCalls().get("user-1");
                    assertThat(upload.byUser()).isTrue();
                    assertThat(upload.arguments()).contains("in.bin").contains("<200000 characters>")
                            .doesNotContain(base64);
                    assertThat(s.messages()).last().isInstanceOfSatisfying(Message.Notice.class,
                            n -> assertThat(n.text()).startsWith("The user ran the tool upload directly")
                                    .hasSizeLessThan(500));
                });
        given(created(), new ToolCallRequested("user-1", "download", "{\"path\":\"in.bin\"}", null, true))
                .when(new ToolCallCompleted("user-1", true, base64, null, null, false, 1, false))
                .then(s -> assertThat(s.toolCalls().get("user-1").output())
                        .hasSizeLessThan(SessionFold.USER_TOOL_OUTPUT_KEPT + 100).endsWith("<200000 characters>"));
    }

    @Test
    void a_posted_message_starts_a_turn() {
        given(created())
                .when(new UserMessagePosted("create hello.txt containing hi"))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                    assertThat(s.turns()).isEqualTo(1);
                    assertThat(s.turn()).isEqualTo(new Turn(1, 0, null, List.of()));
                    assertThat(s.messages()).containsExactly(new Message.User(2, "create hello.txt containing hi"));
                    assertThat(s.updatedAt()).isEqualTo(FoldScenario.time(2));
                    assertThat(s.createdAt()).isEqualTo(FoldScenario.time(1));
                });
    }

    @Test
    void each_posted_message_starts_the_next_numbered_turn_and_clears_the_last_error() {
        given(created(), posted("first"), modelStarted("req-1", 1), new ModelCallFailed("req-1", "connection refused"),
                new TurnEnded(TurnOutcome.ERROR, null, "model call failed: connection refused"))
                .when(new UserMessagePosted("second"))
                .thenComparedTo((before, after) -> {
                    assertThat(before.lastError()).isEqualTo("model call failed: connection refused");
                    assertThat(after.lastError()).isNull();
                    assertThat(after.turns()).isEqualTo(2);
                    assertThat(after.turn().number()).isEqualTo(2);
                    assertThat(after.turn().iterations()).isZero();
                    // How the previous turn ended stays visible until this one ends.
                    assertThat(after.lastOutcome()).isEqualTo(TurnOutcome.ERROR);
                    assertThat(after.messages()).extracting(Message::seq).containsExactly(2L, 6L);
                });
    }

    @Test
    void attached_memory_replaces_the_previous_document_and_its_version() {
        given(created(), posted("hi"), new MemoryAttached("- likes tea", 1))
                .when(new MemoryAttached("- likes coffee", 2))
                .then(s -> {
                    assertThat(s.memory()).isEqualTo("- likes coffee");
                    assertThat(s.memoryVersion()).isEqualTo(2);
                    assertThat(s.messages()).hasSize(1);
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                });
    }

    // ---- model calls -----------------------------------------------------------------------------------------------

    @Test
    void a_started_model_call_counts_the_iteration_and_is_awaited() {
        given(created(), posted("hi"))
                .when(new ModelCallStarted("req-1", 1))
                .then(s -> {
                    assertThat(s.turn().iterations()).isEqualTo(1);
                    assertThat(s.turn().pendingRequestId()).isEqualTo("req-1");
                    assertThat(s.modelCalls()).as("counted when completed, not when started").isZero();
                });
    }

    @Test
    void a_model_call_started_outside_a_turn_changes_nothing_but_seq() {
        given(created())
                .when(new ModelCallStarted("req-stray", 1))
                .thenComparedTo((before, after) -> {
                    assertThat(after.turn()).isNull();
                    assertThat(after.status()).isEqualTo(SessionStatus.IDLE);
                    assertThat(after.lastSeq()).isEqualTo(2);
                    assertThat(withoutSeqAndTime(after)).isEqualTo(withoutSeqAndTime(before));
                });
    }

    @Test
    void a_completed_model_call_becomes_an_assistant_message_and_proposes_its_tool_calls() {
        ToolCallSpec write = new ToolCallSpec("call-1", "write", "{\"path\":\"a.txt\",\"content\":\"a\"}");
        ToolCallSpec ls = new ToolCallSpec("call-2", "ls", "{}");

        given(created(), posted("make a.txt"), modelStarted("req-1", 1))
                .when(modelCompleted("req-1", null, null, List.of(write, ls), new TokenUsage(100, 20, 120)))
                .then(s -> {
                    assertThat(s.messages()).last()
                            .isEqualTo(new Message.Assistant(4, null, null, List.of(write, ls)));
                    assertThat(s.toolCalls()).containsOnlyKeys("call-1", "call-2");
                    assertThat(s.toolCalls().keySet()).as("in the order the model asked").containsExactly("call-1", "call-2");
                    assertThat(s.toolCalls().get("call-1")).isEqualTo(new ToolCallView("call-1", "write",
                            write.arguments(), ToolCallView.Status.PROPOSED, null, null, null, null, false, 0, false, null,
                            false, null, null));
                    assertThat(s.turn().openToolCalls()).containsExactly("call-1", "call-2");
                    assertThat(s.turn().pendingRequestId()).as("the model call is answered").isNull();
                    assertThat(s.turn().iterations()).isEqualTo(1);
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                });
    }

    @Test
    void reasoning_is_kept_apart_from_content() {
        given(created(), posted("what is 6*7?"), modelStarted("req-1", 1))
                .when(modelCompleted("req-1", "42", "6*7 is 42; answer with the number only.", List.of(),
                        new TokenUsage(50, 12, 62)))
                .then(s -> {
                    Message.Assistant answer = (Message.Assistant) s.messages().getLast();
                    assertThat(answer.content()).isEqualTo("42");
                    assertThat(answer.reasoning()).isEqualTo("6*7 is 42; answer with the number only.");
                    assertThat(answer.content()).doesNotContain("answer with the number only");
                    assertThat(answer.toolCalls()).isEmpty();
                });
    }

    @Test
    void token_usage_adds_up_over_model_calls() {
        ToolCallSpec ls = new ToolCallSpec("call-1", "ls", "{}");
        given(created(), posted("list files"), modelStarted("req-1", 1),
                modelCompleted("req-1", null, null, List.of(ls), new TokenUsage(1000, 30, 1030)),
                new ToolCallCompleted("call-1", true, "a.txt\n", null, null, false, 5, false),
                modelStarted("req-2", 2))
                .when(new ModelCallCompleted("req-2", "other-model", "There is a.txt.", null, List.of(),
                        new TokenUsage(1100, 8, 1108), "stop"))
                .then(s -> {
                    assertThat(s.usage()).isEqualTo(new TokenUsage(2100, 38, 2138));
                    assertThat(s.modelCalls()).isEqualTo(2);
                    assertThat(s.lastModel()).isEqualTo("other-model");
                });
    }

    @Test
    void a_model_call_without_reported_usage_adds_nothing() {
        given(created(), posted("hi"), modelStarted("req-1", 1),
                modelCompleted("req-1", "hello", null, List.of(), new TokenUsage(10, 2, 12)), turnEnded("hello"),
                posted("again"), modelStarted("req-2", 1))
                .when(new ModelCallCompleted("req-2", "m", "hello again", null, null, null, "stop"))
                .then(s -> {
                    assertThat(s.usage()).isEqualTo(new TokenUsage(10, 2, 12));
                    assertThat(s.modelCalls()).isEqualTo(2);
                });
    }

    @Test
    void a_failed_model_call_records_the_error_and_is_no_longer_awaited() {
        given(created(), posted("hi"), modelStarted("req-1", 1))
                .when(new ModelCallFailed("req-1", "HTTP 503 after 3 attempts"))
                .then(s -> {
                    assertThat(s.lastError()).isEqualTo("HTTP 503 after 3 attempts");
                    assertThat(s.turn().pendingRequestId()).isNull();
                    assertThat(s.turn().iterations()).isEqualTo(1);
                    assertThat(s.status()).as("the decider ends the turn, not the fold").isEqualTo(SessionStatus.RUNNING);
                    assertThat(s.modelCalls()).isZero();
                    assertThat(s.messages()).hasSize(1);
                });
    }

    // ---- tool calls ------------------------------------------------------------------------------------------------

    @Test
    void a_tool_call_moves_from_proposed_to_requested_to_started_by_a_worker() {
        FoldScenario requested = given(created(), posted("ls"), modelStarted("req-1", 1),
                modelCompleted("req-1", null, null, List.of(new ToolCallSpec("call-1", "ls", "{}")), TokenUsage.ZERO))
                .when(new ToolCallRequested("call-1", "ls", "{}"));
        assertThat(requested.state().toolCalls().get("call-1").status()).isEqualTo(ToolCallView.Status.REQUESTED);

        given(created(), posted("ls"), modelStarted("req-1", 1),
                modelCompleted("req-1", null, null, List.of(new ToolCallSpec("call-1", "ls", "{}")), TokenUsage.ZERO),
                new ToolCallRequested("call-1", "ls", "{}"))
                .when(new ToolCallStarted("call-1", "sandbox-worker-2"))
                .then(s -> {
                    ToolCallView view = s.toolCalls().get("call-1");
                    assertThat(view.status()).isEqualTo(ToolCallView.Status.STARTED);
                    assertThat(view.worker()).isEqualTo("sandbox-worker-2");
                    assertThat(view.ok()).as("no result yet").isNull();
                    assertThat(s.turn().openToolCalls()).containsExactly("call-1");
                });
    }

    @Test
    void tool_results_close_open_calls_and_become_tool_messages() {
        ToolCallSpec write = new ToolCallSpec("call-1", "write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}");
        ToolCallSpec cat = new ToolCallSpec("call-2", "shell", "{\"command\":\"cat hello.txt\"}");

        given(created(), posted("write and show"), modelStarted("req-1", 1),
                modelCompleted("req-1", null, null, List.of(write, cat), TokenUsage.ZERO),
                new ToolCallRequested("call-1", "write", write.arguments()),
                new ToolCallRequested("call-2", "shell", cat.arguments()),
                new ToolCallStarted("call-1", "w-0"),
                new ToolCallCompleted("call-1", true, "wrote 3 bytes", null, "+hi", false, 12, false),
                new ToolCallStarted("call-2", "w-0"))
                .when(new ToolCallCompleted("call-2", true, "hi\n", null, null, false, 48, false))
                .then(s -> {
                    assertThat(s.turn().openToolCalls()).isEmpty();
                    assertThat(s.messages()).filteredOn(Message.Tool.class::isInstance)
                            .containsExactly(new Message.Tool(8, "call-1", "write", "wrote 3 bytes"),
                                    new Message.Tool(10, "call-2", "shell", "hi\n"));
                    ToolCallView cat2 = s.toolCalls().get("call-2");
                    assertThat(cat2.status()).isEqualTo(ToolCallView.Status.COMPLETED);
                    assertThat(cat2.ok()).isTrue();
                    assertThat(cat2.output()).isEqualTo("hi\n");
                    assertThat(cat2.durationMs()).isEqualTo(48);
                    assertThat(cat2.worker()).as("kept from the start").isEqualTo("w-0");
                    assertThat(s.toolCalls().get("call-1").diff()).isEqualTo("+hi");
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                });
    }

    @Test
    void every_proposed_call_is_answered_once_each_result_arrives() {
        List<ToolCallSpec> calls = List.of(new ToolCallSpec("a", "ls", "{}"), new ToolCallSpec("b", "ls", "{}"),
                new ToolCallSpec("c", "ls", "{}"));
        SessionState s = given(created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, calls, TokenUsage.ZERO),
                new ToolCallCompleted("b", true, "B", null, null, false, 1, false),
                new ToolCallCompleted("a", true, "A", null, null, false, 1, false))
                .when(new ToolCallCompleted("c", true, "C", null, null, false, 1, false))
                .state();

        assertThat(s.turn().openToolCalls()).isEmpty();
        assertThat(s.toolCalls().values()).allSatisfy(v -> assertThat(v.status()).isEqualTo(ToolCallView.Status.COMPLETED));
        assertThat(s.messages()).filteredOn(Message.Tool.class::isInstance)
                .extracting(m -> ((Message.Tool) m).callId())
                .as("results in the order they arrived")
                .containsExactly("b", "a", "c");
    }

    @Test
    void a_failed_tool_result_reads_as_an_error_for_the_model() {
        given(created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("call-1", "shell", "{\"command\":\"false\"}")),
                        TokenUsage.ZERO))
                .when(new ToolCallCompleted("call-1", false, "some output", "exit code 1", null, true, 7, false))
                .then(s -> {
                    assertThat(s.messages().getLast()).isEqualTo(
                            new Message.Tool(5, "call-1", "shell", "ERROR: exit code 1\nsome output"));
                    assertThat(s.toolCalls().get("call-1").truncated()).isTrue();
                    assertThat(s.toolCalls().get("call-1").ok()).isFalse();
                });
    }

    @Test
    void an_interrupted_call_is_recorded_as_answered_and_marked_interrupted() {
        given(created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("call-1", "shell", "{}")), TokenUsage.ZERO),
                new ToolCallRequested("call-1", "shell", "{}"), new ToolCallStarted("call-1", "w-1"))
                .when(new ToolCallCompleted("call-1", false, null, "interrupted, not re-run", null, false, 0, true))
                .then(s -> {
                    ToolCallView v = s.toolCalls().get("call-1");
                    assertThat(v.interrupted()).isTrue();
                    assertThat(v.status()).isEqualTo(ToolCallView.Status.COMPLETED);
                    assertThat(s.turn().openToolCalls()).isEmpty();
                    assertThat(((Message.Tool) s.messages().getLast()).content())
                            .isEqualTo("ERROR: interrupted, not re-run");
                });
    }

    @Test
    void events_for_a_call_the_session_never_proposed_change_nothing_but_seq() {
        SessionEvent[] history = {created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("call-1", "ls", "{}")), TokenUsage.ZERO)};
        for (SessionEvent stray : List.of(new ToolCallRequested("ghost", "ls", "{}"), new ToolCallStarted("ghost", "w"),
                new ToolCallCompleted("ghost", true, "boo", null, null, false, 1, false))) {
            given(history).when(stray).thenComparedTo((before, after) -> {
                assertThat(after.toolCalls()).as(stray.toString()).doesNotContainKey("ghost");
                assertThat(after.messages()).as(stray.toString()).isEqualTo(before.messages());
                assertThat(after.turn()).as(stray.toString()).isEqualTo(before.turn());
                assertThat(after.lastSeq()).isEqualTo(5);
            });
        }
    }

    // ---- waits ------------------------------------------------------------------------------------------------------

    @Test
    void a_wait_suspends_and_its_end_resumes_with_a_notice() {
        Instant until = Instant.parse("2025-03-14T10:10:00Z");
        SessionEvent[] untilWaiting = {created(), posted("check the deploy in ten minutes"), modelStarted("r", 1),
                modelCompleted("r", "WAIT: 2025-03-14T10:10:00Z: deploy", null, List.of(), TokenUsage.ZERO)};

        given(untilWaiting)
                .when(new WaitScheduled("wait-1", until, "deploy", null))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.WAITING);
                    assertThat(s.pendingWait()).isEqualTo(new PendingWait("wait-1", until, "deploy", null));
                    assertThat(s.turn()).as("the turn is suspended, not ended").isNotNull();
                });

        SessionEvent[] waiting = append(untilWaiting, new WaitScheduled("wait-1", until, "deploy", null));
        given(waiting)
                .when(new WaitEnded("wait-1"))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.RUNNING);
                    assertThat(s.pendingWait()).isNull();
                    assertThat(s.messages().getLast()).isEqualTo(new Message.Notice(6,
                            "The time you waited for has come (2025-03-14T10:10:00Z: deploy). Continue the task."));
                });
    }

    @Test
    void a_wait_without_a_reason_gets_a_notice_with_just_the_time() {
        Instant until = Instant.parse("2025-03-14T10:10:00Z");
        given(created(), posted("x"), new WaitScheduled("wait-1", until, null, null))
                .when(new WaitEnded("wait-1"))
                .then(s -> assertThat(((Message.Notice) s.messages().getLast()).text())
                        .isEqualTo("The time you waited for has come (2025-03-14T10:10:00Z). Continue the task."));
    }

    @Test
    void a_wait_asked_for_by_the_wait_tool_ends_without_a_notice() {
        Instant until = Instant.parse("2025-03-14T10:10:00Z");
        given(created(), posted("wait a minute"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("call-w", "wait", "{\"seconds\":60}")),
                        TokenUsage.ZERO),
                new WaitScheduled("wait-1", until, null, "call-w"))
                .when(new WaitEnded("wait-1"))
                .thenComparedTo((before, after) -> {
                    assertThat(before.pendingWait().callId()).isEqualTo("call-w");
                    assertThat(after.messages()).as("the wait tool's result answers it instead")
                            .isEqualTo(before.messages());
                    assertThat(after.status()).isEqualTo(SessionStatus.RUNNING);
                    assertThat(after.pendingWait()).isNull();
                    assertThat(after.turn().openToolCalls()).containsExactly("call-w");
                });
    }

    @Test
    void a_wait_ending_after_its_turn_ended_leaves_the_session_idle_without_a_notice() {
        Instant until = Instant.parse("2025-03-14T10:10:00Z");
        given(created(), posted("x"), new WaitScheduled("wait-1", until, "later", null),
                new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"))
                .when(new WaitEnded("wait-1"))
                .thenComparedTo((before, after) -> {
                    assertThat(before.pendingWait()).as("ending the turn drops its wait").isNull();
                    assertThat(after.status()).isEqualTo(SessionStatus.IDLE);
                    assertThat(after.messages()).isEqualTo(before.messages());
                });
    }

    // ---- ending turns ---------------------------------------------------------------------------------------------

    @Test
    void turn_end_returns_to_idle_with_outcome() {
        given(created(), posted("say hi"), modelStarted("r", 1),
                modelCompleted("r", "hi", null, List.of(), new TokenUsage(10, 1, 11)))
                .when(new TurnEnded(TurnOutcome.COMPLETED, "hi", null))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
                    assertThat(s.turn()).isNull();
                    assertThat(s.pendingWait()).isNull();
                    assertThat(s.lastOutcome()).isEqualTo(TurnOutcome.COMPLETED);
                    assertThat(s.lastAnswer()).isEqualTo("hi");
                    assertThat(s.lastError()).isNull();
                    assertThat(s.turns()).as("turns counts turns started, and stays").isEqualTo(1);
                    assertThat(s.messages()).hasSize(2);
                });
    }

    @Test
    void a_turn_ended_with_a_message_keeps_it_as_the_last_error() {
        given(created(), posted("loop forever"), modelStarted("r", 1))
                .when(new TurnEnded(TurnOutcome.ITERATION_CAP, null, "stopped after 1 model calls in one turn"))
                .then(s -> {
                    assertThat(s.lastOutcome()).isEqualTo(TurnOutcome.ITERATION_CAP);
                    assertThat(s.lastError()).isEqualTo("stopped after 1 model calls in one turn");
                    assertThat(s.lastAnswer()).isNull();
                    assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
                });
    }

    @Test
    void a_turn_ended_without_a_message_keeps_an_earlier_error() {
        given(created(), posted("x"), modelStarted("r", 1), new ModelCallFailed("r", "boom"))
                .when(new TurnEnded(TurnOutcome.ERROR, null, null))
                .then(s -> assertThat(s.lastError()).isEqualTo("boom"));
    }

    @Test
    void ending_a_waiting_turn_drops_the_wait() {
        given(created(), posted("x"), new WaitScheduled("wait-1", Instant.parse("2030-01-01T00:00:00Z"), "later", null))
                .when(new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"))
                .then(s -> {
                    assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
                    assertThat(s.pendingWait()).isNull();
                    assertThat(s.lastOutcome()).isEqualTo(TurnOutcome.CANCELLED);
                });
    }

    @Test
    void cancel_with_open_tool_calls_then_late_result_is_still_recorded() {
        SessionEvent[] cancelled = {created(), posted("curl the health check"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("call-1", "shell", "{\"command\":\"curl x\"}")),
                        TokenUsage.ZERO),
                new ToolCallRequested("call-1", "shell", "{\"command\":\"curl x\"}"),
                new ToolCallStarted("call-1", "w-0"),
                new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user")};

        SessionState afterCancel = SessionFold.fold(FoldScenario.SESSION, envelopes(cancelled));
        assertThat(afterCancel.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(afterCancel.turn()).isNull();
        assertThat(afterCancel.toolCalls().get("call-1").status()).isEqualTo(ToolCallView.Status.STARTED);

        given(cancelled)
                .when(new ToolCallCompleted("call-1", true, "{\"status\":\"UP\"}", null, null, false, 2100, false))
                .then(s -> {
                    assertThat(s.toolCalls().get("call-1").status()).isEqualTo(ToolCallView.Status.COMPLETED);
                    assertThat(s.toolCalls().get("call-1").output()).isEqualTo("{\"status\":\"UP\"}");
                    assertThat(s.messages().getLast()).isEqualTo(
                            new Message.Tool(8, "call-1", "shell", "{\"status\":\"UP\"}"));
                    assertThat(s.status()).as("a late result does not restart the turn").isEqualTo(SessionStatus.IDLE);
                    assertThat(s.turn()).isNull();
                    assertThat(s.lastOutcome()).isEqualTo(TurnOutcome.CANCELLED);
                });
    }

    @Test
    void a_late_result_of_a_cancelled_turn_does_not_close_a_call_of_the_next_turn() {
        given(created(), posted("first"), modelStarted("r1", 1),
                modelCompleted("r1", null, null, List.of(new ToolCallSpec("old", "shell", "{}")), TokenUsage.ZERO),
                new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user"),
                posted("second"), modelStarted("r2", 1),
                modelCompleted("r2", null, null, List.of(new ToolCallSpec("new", "ls", "{}")), TokenUsage.ZERO))
                .when(new ToolCallCompleted("old", true, "late", null, null, false, 1, false))
                .then(s -> {
                    assertThat(s.turn().number()).isEqualTo(2);
                    assertThat(s.turn().openToolCalls()).containsExactly("new");
                    assertThat(s.toolCalls().get("old").status()).isEqualTo(ToolCallView.Status.COMPLETED);
                });
    }

    // ---- things that change nothing ------------------------------------------------------------------------------

    @Test
    void input_rejections_change_nothing_but_seq() {
        given(created(), posted("x"), modelStarted("r", 1))
                .when(new InputRejected("inp-9", "post_user_message.v1", "a turn is already running"))
                .thenComparedTo((before, after) -> {
                    assertThat(after.lastSeq()).isEqualTo(4);
                    assertThat(after.updatedAt()).isEqualTo(FoldScenario.time(4));
                    assertThat(withoutSeqAndTime(after)).isEqualTo(withoutSeqAndTime(before));
                });
    }

    @Test
    void a_notification_is_for_people_and_folds_as_nothing_but_seq_and_time() {
        given(created(), posted("work"))
                .when(new NotificationPosted("report ready", "usr-bob"))
                .thenComparedTo((before, after) -> {
                    assertThat(after.lastSeq()).isEqualTo(3);
                    assertThat(after.status()).isEqualTo(SessionStatus.RUNNING);
                    assertThat(withoutSeqAndTime(after)).isEqualTo(withoutSeqAndTime(before));
                });
    }

    @Test
    void unknown_events_fold_as_nothing_but_advance_seq() {
        var raw = JsonNodeFactory.instance.objectNode().put("detail", "from a newer version");
        given(created(), posted("x"), modelStarted("r", 1))
                .when(new UnknownEvent("future_thing.happened.v9", raw))
                .thenComparedTo((before, after) -> {
                    assertThat(after.lastSeq()).isEqualTo(4);
                    assertThat(after.updatedAt()).isEqualTo(FoldScenario.time(4));
                    assertThat(withoutSeqAndTime(after)).isEqualTo(withoutSeqAndTime(before));
                });
    }

    // ---- properties of the fold as a whole -------------------------------------------------------------------------

    /** Invariant 2: evolve is total. Every event type folds, from every status, without an exception. */
    @TestFactory
    Stream<DynamicTest> every_event_type_folds_from_every_status() {
        Map<String, SessionState> states = Map.of(
                "NEW", SessionState.initial(FoldScenario.SESSION),
                "IDLE", SessionFold.fold(FoldScenario.SESSION, envelopes(created())),
                "RUNNING", given(created(), posted("x")).when(modelStarted("r", 1)).state(),
                "WAITING", given(created(), posted("x"))
                        .when(new WaitScheduled("w", Instant.parse("2030-01-01T00:00:00Z"), null, null)).state());
        List<SessionEvent> samples = new ArrayList<>();
        EventCodec.EVENT_TYPES.all().values().forEach(c -> samples.add(Samples.of(c)));
        samples.add(new UnknownEvent("future_thing.happened.v9", JsonNodeFactory.instance.objectNode()));
        assertThat(samples).hasSizeGreaterThan(10);

        return states.entrySet().stream().flatMap(state -> samples.stream().map(event -> DynamicTest.dynamicTest(
                event.getClass().getSimpleName() + " from " + state.getKey(), () -> {
                    EventEnvelope e = FoldScenario.envelope(state.getValue().lastSeq() + 1, event);
                    SessionState after = SessionFold.evolve(state.getValue(), e);
                    assertThat(after.lastSeq()).isEqualTo(e.seq());
                    assertThat(after.updatedAt()).isEqualTo(e.time());
                    assertThat(after.sessionId()).isEqualTo(FoldScenario.SESSION);
                })));
    }

    @Test
    void folding_is_deterministic_and_never_changes_the_state_it_starts_from() {
        List<EventEnvelope> log = envelopes(created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("c", "ls", "{}")), new TokenUsage(1, 2, 3)),
                new ToolCallCompleted("c", true, "ok", null, null, false, 1, false));
        SessionState start = SessionFold.fold(FoldScenario.SESSION, log.subList(0, 2));
        SessionState startCopy = SessionFold.fold(FoldScenario.SESSION, log.subList(0, 2));

        SessionState a = start;
        SessionState b = start;
        for (EventEnvelope e : log.subList(2, log.size())) {
            a = SessionFold.evolve(a, e);
            b = SessionFold.evolve(b, e);
        }

        assertThat(a).isEqualTo(b);
        assertThat(a).isEqualTo(SessionFold.fold(FoldScenario.SESSION, log));
        assertThat(start).as("evolve returns a new state and leaves its input alone").isEqualTo(startCopy);
        assertThat(start.messages()).hasSize(1);
        assertThat(start.toolCalls()).isEmpty();
    }

    @Test
    void folded_state_cannot_be_changed_from_outside() {
        SessionState s = SessionFold.fold(FoldScenario.SESSION, envelopes(created(), posted("x"), modelStarted("r", 1),
                modelCompleted("r", null, null, List.of(new ToolCallSpec("c", "ls", "{}")), TokenUsage.ZERO)));

        assertThatThrownBy(() -> s.messages().add(new Message.User(99, "sneaky")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.toolCalls().remove("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.turn().openToolCalls().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void a_whole_turn_folds_to_the_expected_conversation() {
        SessionState s = SessionFold.fold(FoldScenario.SESSION, envelopes(created(), posted("list files"),
                modelStarted("r1", 1),
                modelCompleted("r1", null, "look first", List.of(new ToolCallSpec("c", "ls", "{}")), TokenUsage.ZERO),
                new ToolCallRequested("c", "ls", "{}"), new ToolCallStarted("c", "w"),
                new ToolCallCompleted("c", true, "a.txt\n", null, null, false, 3, false),
                modelStarted("r2", 2), modelCompleted("r2", "a.txt", null, List.of(), TokenUsage.ZERO),
                turnEnded("a.txt")));

        assertThat(s.messages()).extracting(m -> m.getClass().getSimpleName(), Message::seq).containsExactly(
                tuple("User", 2L), tuple("Assistant", 4L), tuple("Tool", 7L), tuple("Assistant", 9L));
        assertThat(s.lastSeq()).isEqualTo(10);
        assertThat(s.modelCalls()).isEqualTo(2);
        assertThat(s.status()).isEqualTo(SessionStatus.IDLE);
        assertThat(s.lastAnswer()).isEqualTo("a.txt");
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private static SessionCreated created() {
        return new SessionCreated("test session");
    }

    private static UserMessagePosted posted(String text) {
        return new UserMessagePosted(text);
    }

    private static ModelCallStarted modelStarted(String requestId, int iteration) {
        return new ModelCallStarted(requestId, iteration);
    }

    private static ModelCallCompleted modelCompleted(String requestId, String content, String reasoning,
                                                     List<ToolCallSpec> calls, TokenUsage usage) {
        return new ModelCallCompleted(requestId, "qwen2.5-coder-7b-instruct", content, reasoning, calls, usage,
                calls.isEmpty() ? "stop" : "tool_calls");
    }

    private static TurnEnded turnEnded(String answer) {
        return new TurnEnded(TurnOutcome.COMPLETED, answer, null);
    }

    private static List<EventEnvelope> envelopes(SessionEvent... events) {
        List<EventEnvelope> out = new ArrayList<>();
        for (SessionEvent e : events) {
            out.add(FoldScenario.envelope(out.size() + 1, e));
        }
        return out;
    }

    private static SessionEvent[] append(SessionEvent[] events, SessionEvent more) {
        SessionEvent[] out = java.util.Arrays.copyOf(events, events.length + 1);
        out[events.length] = more;
        return out;
    }

    /** The state with the two fields every event changes blanked, to show an event changed nothing else. */
    private static SessionState withoutSeqAndTime(SessionState s) {
        return new SessionState(s.sessionId(), s.userId(), s.title(), s.status(), 0, s.createdAt(), null, s.messages(),
                s.toolCalls(), s.usage(), s.modelCalls(), s.turns(), s.turn(), s.pendingWait(), s.memory(),
                s.memoryVersion(), s.lastModel(), s.lastOutcome(), s.lastAnswer(), s.lastError(), s.shell(), s.checkpoint(),
                s.forkedFrom(), s.forkedAtSeq(), s.permissionMode(), s.pendingApprovals(), s.alwaysAllowed(), s.queuedWhispers(),
                s.context(), s.planning(), s.models());
    }
}
