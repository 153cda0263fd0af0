package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.StartInboxTask;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.state.SessionStatus;
import org.junit.jupiter.api.Test;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** A task of the inbox starts its session (whose id is the task's) exactly once, however often the scheduler sends it. */
class InboxTasksTest {

    @Test
    void a_due_task_creates_its_session_and_starts_a_turn_with_the_task_as_the_first_message() {
        Decision d = given().withDefaultMode(PermissionMode.NORMAL)
                .when(new StartInboxTask("Weekly report", "generate the weekly report"));

        assertThat(d.events()).hasSize(3);
        assertThat(d.events().get(0)).isEqualTo(new SessionCreated("Weekly report", PermissionMode.NORMAL));
        assertThat(d.events().get(1)).isEqualTo(new UserMessagePosted("generate the weekly report"));
        assertThat(d.events().get(2)).isInstanceOf(ModelCallStarted.class);
        assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
        assertThat(d.state().status()).isEqualTo(SessionStatus.RUNNING);
    }

    @Test
    void a_task_without_a_title_gets_a_title_that_says_where_it_came_from() {
        Decision d = given().when(new StartInboxTask(" ", "tidy up"));

        assertThat(d.events().getFirst()).isInstanceOfSatisfying(SessionCreated.class,
                c -> assertThat(c.title()).isEqualTo("Inbox task"));
    }

    @Test
    void the_same_task_sent_again_after_it_started_changes_nothing() {
        Decision d = given(new SessionCreated("Weekly report", PermissionMode.AUTO),
                new UserMessagePosted("generate the weekly report"))
                .when(new StartInboxTask("Weekly report", "generate the weekly report"));

        assertThat(d.events()).isEmpty();
        assertThat(d.effects()).isEmpty();
        assertThat(d.ignoredBecause()).contains("has started already");
    }

    @Test
    void an_empty_task_starts_nothing() {
        Decision d = given().when(new StartInboxTask("t", "  "));

        assertThat(d.events()).isEmpty();
        assertThat(d.state().exists()).isFalse();
    }
}
