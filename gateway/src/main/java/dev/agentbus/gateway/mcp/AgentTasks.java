package dev.agentbus.gateway.mcp;

import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionAccess;
import dev.agentbus.gateway.sessions.SessionDirectory;
import dev.agentbus.gateway.sessions.SessionViewer;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The agent's turns for the MCP server: start one with a task and wait for its end ({@code run_task}), or wait for
 * the end of the one under way ({@code await_task}). Like a person using the sessions API: a new session is a
 * {@code create_session.v1} input, the task a {@code post_user_message.v1}, and the answer is read from the session's
 * log as the gateway follows it. Nothing is kept between requests, so any gateway replica can answer any of them.
 */
@Singleton
final class AgentTasks {
    static final int MAX_TASK_CHARS = 256 * 1024;
    private static final Duration SESSION_APPEARS = Duration.ofSeconds(10);
    private static final int TITLE_CHARS = 60;

    private final SessionDirectory directory;
    private final SessionAccess access;
    private final InputSender inputs;

    AgentTasks(SessionDirectory directory, SessionAccess access, InputSender inputs) {
        this.directory = directory;
        this.access = access;
        this.inputs = inputs;
    }

    /**
     * Posts {@code task} to {@code sessionId} (one {@code user} may act in), or to a new session of theirs when it
     * is null, and waits at most {@code wait} for the turn to end.
     */
    TaskReport run(String user, String sessionId, String task, Duration wait) throws InterruptedException {
        if (task == null || task.isBlank()) {
            throw ApiException.badRequest("task is required and must not be empty");
        }
        if (task.length() > MAX_TASK_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "task is longer than " + MAX_TASK_CHARS + " characters");
        }
        SessionState session = sessionId == null ? create(user, task) : access.writable(sessionId, user);
        if (!session.acceptsMessage()) {
            throw SessionAccess.busy(session, "wait for its turn with await_task, or start a new session");
        }
        String inputId = UUID.randomUUID().toString();
        return follow(session, SessionViewer.of(session, user), TaskProgress.ofMessage(inputId), wait,
                () -> inputs.send(session.sessionId(), user, inputId, new SessionInput.PostUserMessage(task)));
    }

    /**
     * Waits at most {@code wait} for the turn under way in a session {@code user} may see, also while it waits for
     * a person's approval; answers at once if no turn is under way.
     */
    TaskReport await(String user, String sessionId, Duration wait) throws InterruptedException {
        SessionState session = access.readable(sessionId, user);
        // The state at its last event, and the events after it when following: nothing falls between the two.
        var now = TaskProgress.of(session);
        SessionViewer viewer = SessionViewer.of(session, user);
        if (now.isPresent()) {
            return report(viewer, session.sessionId(), now.get());
        }
        return follow(session, viewer, TaskProgress.ofRunningTurn(), wait, () -> { });
    }

    private SessionState create(String user, String task) throws InterruptedException {
        String id = UUID.randomUUID().toString();
        String title = task.strip().replaceAll("\\s+", " ");
        inputs.send(id, user, new SessionInput.CreateSession(title.length() > TITLE_CHARS
                ? title.substring(0, TITLE_CHARS) + "…" : title));
        if (!directory.awaitSession(id, SESSION_APPEARS)) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the agent did not start a session within "
                    + SESSION_APPEARS.toSeconds() + " s; is the orchestrator running? Try again");
        }
        return access.writable(id, user);
    }

    /**
     * Follows the session from {@code session}'s last event on, then does {@code start}: nothing the turn writes
     * can be missed.
     */
    private TaskReport follow(SessionState session, SessionViewer viewer, TaskProgress progress, Duration wait,
                              Runnable start)
            throws InterruptedException {
        String id = session.sessionId();
        CompletableFuture<TaskProgress.Outcome> end = new CompletableFuture<>();
        Runnable unfollow = directory.subscribe(id, session.lastSeq(), new SessionDirectory.Subscriber() {
            @Override
            public void onEvent(EventEnvelope event) {
                synchronized (progress) {
                    progress.onEvent(event).ifPresent(end::complete);
                }
            }

            @Override
            public void onDelta(StreamChunk chunk) {
                // tokens as they stream: the MCP answer is the final one, so only events count
            }
        });
        try {
            start.run();
            return report(viewer, id, end.get(wait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            // The turn goes on: say whether it waits for a person, or is still at work.
            var open = directory.state(id).flatMap(TaskProgress::stillOpen);
            return open.isPresent() ? report(viewer, id, open.get())
                    : TaskReport.stillRunning(id, (int) wait.toSeconds());
        } catch (ExecutionException e) {
            throw new IllegalStateException("following session " + id + " failed", e.getCause());
        } finally {
            unfollow.run();
        }
    }

    private TaskReport report(SessionViewer viewer, String id, TaskProgress.Outcome outcome) {
        if (outcome instanceof TaskProgress.Outcome.AwaitingApproval waiting) {
            // The event names one call; a batch of calls asks for several, which the state lists.
            var pending = directory.state(id).map(SessionState::pendingApprovals).orElse(List.of());
            outcome = new TaskProgress.Outcome.AwaitingApproval((pending.isEmpty() ? waiting.approvals() : pending)
                    .stream().map(viewer::approval).toList());
        }
        return TaskReport.of(id, outcome, "/api/v1/sessions/" + id);
    }
}
