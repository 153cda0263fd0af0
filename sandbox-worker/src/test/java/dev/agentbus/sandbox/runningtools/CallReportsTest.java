package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.sandbox.tools.ToolOutcome;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a call's result says, for a call that ran, one that was cancelled, and one a dead worker left behind. */
class CallReportsTest {

    @Test
    void a_finished_calls_result_carries_its_outcome_time_and_checkpoint() {
        // given a call that ran and changed a file
        TakenCall call = CallQueueTest.call("s1", "c1", 0);
        ToolOutcome outcome = new ToolOutcome(true, "done", null, "--- a\n+++ b\n", true);
        FinishedCall finished = new FinishedCall(call, outcome, 42, false, "abc1234");

        // when its result is built
        RecordToolResult result = CallReports.resultOf(finished);

        // then it says what the tool said, how long it took and where its checkpoint is
        assertThat(result).isEqualTo(new RecordToolResult("c1", true, "done", null, "--- a\n+++ b\n", true, 42,
                false, null, "abc1234", null));
    }

    @Test
    void a_call_given_up_is_reported_not_run() {
        // given a call given up before it started (its partition moved away)
        FinishedCall givenUp = FinishedCall.notRun(CallQueueTest.call("s1", "c2", 0));

        // when its result is built
        RecordToolResult result = CallReports.resultOf(givenUp);

        // then it failed, was not run, and says why
        assertThat(result.ok()).isFalse();
        assertThat(result.interrupted()).isTrue();
        assertThat(result.error()).startsWith("not run: this session moved to another sandbox-worker");
        assertThat(result.checkpoint()).isNull();
    }

    @Test
    void a_cancelled_call_fails_but_keeps_what_it_printed_and_changed() {
        // given a command that printed something and changed a file before its turn was cancelled
        Path changed = Path.of("/workspace/a.txt");
        ToolOutcome ran = new ToolOutcome(true, "partial output", null, "a diff", true).changing(changed);

        // when it is marked cancelled
        ToolOutcome cancelled = CallReports.cancelled(ran);

        // then it failed with the reason, and what it printed and changed stay (so its checkpoint is taken)
        assertThat(cancelled.ok()).isFalse();
        assertThat(cancelled.error()).startsWith("cancelled: the turn was cancelled while this call ran");
        assertThat(cancelled.output()).isEqualTo("partial output");
        assertThat(cancelled.truncated()).isTrue();
        assertThat(cancelled.diff()).isNull();
        assertThat(cancelled.changedPaths()).isEqualTo(List.of(changed));
    }

    @Test
    void a_call_a_dead_worker_left_is_reported_interrupted_not_run_again() {
        // when the result of a call started and never finished is built
        RecordToolResult result = CallReports.interruptedResult("c3");

        // then it failed, is marked interrupted, and tells the model to check the workspace
        assertThat(result).isEqualTo(new RecordToolResult("c3", false, null, CallReports.INTERRUPTED, null, false,
                0, true));
        assertThat(result.error()).contains("it was not run again, so check the workspace before retrying");
    }
}
