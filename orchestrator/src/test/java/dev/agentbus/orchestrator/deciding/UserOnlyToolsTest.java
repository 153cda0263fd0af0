package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.RecordModelResult;
import dev.agentbus.events.input.SessionInput.RunUserTool;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Upload, download and rewind are for people: the model cannot call them even if it guesses their names. */
class UserOnlyToolsTest {
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);

    @Test
    void a_model_call_to_a_user_only_tool_fails_with_a_clear_message_and_runs_nothing() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("get me the file"),
                new ModelCallStarted("r1", 1))
                .when(new RecordModelResult("r1", "m", "", null,
                        List.of(new ToolCallSpec("c1", "download", "{\"path\":\"a.txt\"}")), USAGE, "tool_calls"));

        assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested);
        assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c -> {
            assertThat(c.callId()).isEqualTo("c1");
            assertThat(c.ok()).isFalse();
            assertThat(c.error()).isEqualTo("'download' can only be run by a person, not by the model");
        });
        assertThat(d.events().get(2)).isEqualTo(new ModelCallStarted("id-1", 2));
    }

    @Test
    void the_unknown_tool_message_lists_only_tools_the_model_may_call() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("x"), new ModelCallStarted("r1", 1))
                .when(new RecordModelResult("r1", "m", "", null,
                        List.of(new ToolCallSpec("c1", "teleport", "{}")), USAGE, "tool_calls"));

        assertThat(d.events().get(1)).isInstanceOfSatisfying(ToolCallCompleted.class, c ->
                assertThat(c.error()).contains("run_command").doesNotContain("upload").doesNotContain("rewind"));
    }

    @Test
    void a_person_may_run_a_user_only_tool_while_the_session_is_idle() {
        Decision d = given(new SessionCreated("t"))
                .when(new RunUserTool("u1", "upload", "{\"path\":\"a.txt\",\"content_base64\":\"aGk=\"}"));

        assertThat(d.events()).singleElement().isInstanceOfSatisfying(ToolCallRequested.class, r -> {
            assertThat(r.name()).isEqualTo("upload");
            assertThat(r.byUser()).isTrue();
        });
    }
}
