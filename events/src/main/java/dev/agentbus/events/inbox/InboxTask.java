package dev.agentbus.events.inbox;

import java.time.Instant;

/**
 * A task queued in a user's inbox (LMAgent's {@code --submit}), on the compacted topic {@code agentbus.inbox}, keyed
 * by its id; a tombstone (no value) when the user cancels it. Written only by the gateway ({@code POST /api/v1/inbox},
 * {@code DELETE /api/v1/inbox/{id}}); read by the scheduler, which starts it at {@code at}, and by the gateway.
 *
 * <p>The task starts as the session whose id is the task's id ({@code start_inbox_task.v1} to that session). That is
 * what makes it start exactly once: a second start (the scheduler restarted before the task was marked started) finds
 * the session and changes nothing. Whether a task has started is a fact of the session log; the gateway copies it
 * here ({@code startedAt}) once it sees the session, so the scheduler, reading this topic alone, stops arming it.
 *
 * @param id          the task's id, also the id of the session it starts
 * @param userId      whose task it is: the session belongs to this user
 * @param title       the new session's title; blank: the orchestrator's default
 * @param text        the task: the session's first message
 * @param at          when to start it (the submission time for "now")
 * @param submittedAt when the gateway queued it
 * @param startedAt   when its session was created; null while it waits
 */
public record InboxTask(String id, String userId, String title, String text, Instant at, Instant submittedAt,
                        Instant startedAt) {

    public InboxTask started(Instant when) {
        return new InboxTask(id, userId, title, text, at, submittedAt, when);
    }
}
