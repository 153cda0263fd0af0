package dev.agentbus.gateway.workspace;

import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.UserToolCalls.Outcome;
import io.micronaut.http.HttpStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the worker's answer to a person's tool call becomes a result, or the API's error that says why not. */
class ToolOutcomesTest {

    private static ToolCallCompleted failed(String error, String refusal, boolean interrupted) {
        return new ToolCallCompleted("user-1", false, "", error, null, false, 1, interrupted, null, null, refusal);
    }

    private static int statusOf(Outcome outcome) {
        try {
            WorkspaceOperations.completed(outcome, "listing");
            throw new AssertionError("no error");
        } catch (ApiException e) {
            return e.status().getCode();
        }
    }

    @Test
    void a_successful_call_is_its_result() {
        ToolCallCompleted ok = new ToolCallCompleted("user-1", true, "a\n", null, null, false, 1, false);

        assertThat(WorkspaceOperations.completed(new Outcome.Completed(ok, 4), "listing")).isSameAs(ok);
    }

    @Test
    void each_failure_has_its_status() {
        assertThat(statusOf(new Outcome.Completed(failed("refused: '/etc' is outside the workspace",
                "'/etc' is outside the workspace", false), 4))).isEqualTo(HttpStatus.FORBIDDEN.getCode());
        assertThat(statusOf(new Outcome.Completed(failed("file not found: a", null, false), 4)))
                .isEqualTo(HttpStatus.NOT_FOUND.getCode());
        assertThat(statusOf(new Outcome.Completed(failed("no such file or directory: a", null, false), 4)))
                .isEqualTo(HttpStatus.NOT_FOUND.getCode());
        assertThat(statusOf(new Outcome.Completed(failed("file is too large to download: a", null, false), 4)))
                .isEqualTo(HttpStatus.REQUEST_ENTITY_TOO_LARGE.getCode());
        assertThat(statusOf(new Outcome.Completed(failed("the worker stopped", null, true), 4)))
                .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE.getCode());
        assertThat(statusOf(new Outcome.Completed(failed("a is a directory", null, false), 4)))
                .isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY.getCode());
        assertThat(statusOf(new Outcome.Rejected("a turn is running"))).isEqualTo(HttpStatus.CONFLICT.getCode());
        assertThat(statusOf(new Outcome.TimedOut(Duration.ofSeconds(30)))).isEqualTo(HttpStatus.GATEWAY_TIMEOUT.getCode());
    }

    @Test
    void a_path_must_be_given_short_and_without_nul() {
        assertThatThrownBy(() -> WorkspaceOperations.checkedPath(" ")).hasMessageStartingWith("path is required");
        assertThatThrownBy(() -> WorkspaceOperations.checkedPath("a\0b")).hasMessageContaining("no NUL");
        assertThatThrownBy(() -> WorkspaceOperations.checkedPath("a".repeat(1025))).hasMessageContaining("1024");
        assertThat(WorkspaceOperations.checkedPath("docs/a b.txt")).isEqualTo("docs/a b.txt");
    }
}
