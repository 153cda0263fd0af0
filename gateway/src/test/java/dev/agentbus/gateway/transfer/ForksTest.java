package dev.agentbus.gateway.transfer;

import dev.agentbus.events.input.SessionInput.ForkSession;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.gateway.transfer.JsonlLogTest.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Given a log, when forking at a seq or importing it, then this fork_session.v1 input. */
class ForksTest {
    static final String C1 = "1111111111111111111111111111111111111111";
    static final String C2 = "2222222222222222222222222222222222222222";

    /** Two writes, each leaving a checkpoint (seq 7 and 10), then the answer. */
    static final List<EventEnvelope> LOG = List.of(
            at(1, new SessionEvent.SessionCreated("files")),
            at(2, new SessionEvent.UserMessagePosted("write two files")),
            at(3, new SessionEvent.ModelCallStarted("r1", 1)),
            at(4, new SessionEvent.ModelCallCompleted("r1", "m", null, null,
                    List.of(new ToolCallSpec("c1", "write", "{}"), new ToolCallSpec("c2", "write", "{}")),
                    new TokenUsage(10, 1, 11), "tool_calls")),
            at(5, new SessionEvent.ToolCallRequested("c1", "write", "{}")),
            at(6, new SessionEvent.ToolCallRequested("c2", "write", "{}")),
            at(7, new SessionEvent.ToolCallCompleted("c1", true, "ok", null, null, false, 1, false, null, C1, null)),
            at(8, new SessionEvent.ToolCallCompleted("c2", true, "ok", null, null, false, 1, false, null, C2, null)),
            at(9, new SessionEvent.ModelCallStarted("r2", 2)),
            at(10, new SessionEvent.ModelCallCompleted("r2", "m", "done", null, List.of(), TokenUsage.ZERO, "stop")),
            at(11, new SessionEvent.TurnEnded(dev.agentbus.events.session.TurnOutcome.COMPLETED, "done", null)));

    @Test
    void a_fork_carries_the_state_and_the_latest_checkpoint_at_its_seq() {
        ForkSession fork = Forks.at(LOG, 7, "  try again ");

        assertThat(fork.fromSessionId()).isEqualTo("s1");
        assertThat(fork.atSeq()).isEqualTo(7);
        assertThat(fork.state()).isEqualTo(SessionFold.fold("s1", LOG.subList(0, 7)));
        assertThat(fork.state().status()).isEqualTo(SessionStatus.RUNNING);
        assertThat(fork.checkpoint()).isEqualTo(C1);
        assertThat(fork.title()).isEqualTo("try again");
    }

    @Test
    void a_fork_before_any_file_changed_has_no_checkpoint_and_a_blank_title_is_none() {
        ForkSession fork = Forks.at(LOG, 2, " ");

        assertThat(fork.checkpoint()).isNull();
        assertThat(fork.title()).isNull();
        assertThat(Forks.at(LOG, 11, null).checkpoint()).isEqualTo(C2);
    }

    @Test
    void a_seq_outside_the_log_is_refused_with_the_range() {
        assertThatThrownBy(() -> Forks.at(LOG, 0, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("atSeq must be between 1 and 11 (the session's last seq), not 0");
        assertThatThrownBy(() -> Forks.at(LOG, 12, null)).hasMessageContaining("not 12");
    }

    @Test
    void an_import_forks_at_the_last_seq_without_a_checkpoint() {
        ForkSession imported = Forks.imported(LOG, null);

        assertThat(imported.atSeq()).isEqualTo(11);
        assertThat(imported.state()).isEqualTo(SessionFold.fold("s1", LOG));
        assertThat(imported.checkpoint()).as("the files are on the machine the log came from").isNull();
        assertThat(imported.title()).isEqualTo("files (imported)");
        assertThat(Forks.imported(LOG, "mine").title()).isEqualTo("mine");
    }
}
