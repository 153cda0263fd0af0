package dev.agentbus.gateway.inbox;

import dev.agentbus.api.inbox.InboxItem;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.errors.ApiException;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.http.HttpStatus;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A user's inbox (LMAgent's {@code --submit}): tasks that start in a new session, now or at a time. The gateway is the
 * only writer of {@code agentbus.inbox}; the scheduler starts each task when it is due. Whether a task has started is
 * read from the session log (the task's session exists), so a listing is right even before {@link InboxStarts} has
 * copied the fact to the topic. Each change is answered once the gateway's own view of the topic shows it, so a
 * listing right after it sees it.
 */
@Singleton
final class Inbox {
    static final int MAX_TEXT_CHARS = 256 * 1024;
    static final int MAX_TITLE_CHARS = 200;
    private static final java.time.Duration WAIT = java.time.Duration.ofSeconds(10);

    private final CompactedTopicView<InboxTask> tasks;
    private final SessionDirectory directory;
    private final InputSender sender;
    private final InboxSettings settings;
    private final Clock clock = Clock.systemUTC();

    Inbox(CompactedTopicView<InboxTask> tasks, SessionDirectory directory, InputSender sender,
                 InboxSettings settings) {
        this.tasks = tasks;
        this.directory = directory;
        this.sender = sender;
        this.settings = settings;
    }

    /** Queues a task; {@code at} null or blank: now. Bad input is a 400 with the reason. */
    InboxItem submit(String user, String title, String text, String at) throws InterruptedException {
        if (text == null || text.isBlank()) {
            throw ApiException.badRequest("text is required and must not be empty");
        }
        if (text.length() > MAX_TEXT_CHARS) {
            throw new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                    "text is longer than " + MAX_TEXT_CHARS + " characters");
        }
        String cleanTitle = title == null ? "" : title.strip();
        if (cleanTitle.length() > MAX_TITLE_CHARS) {
            throw ApiException.badRequest("title is longer than " + MAX_TITLE_CHARS + " characters");
        }
        Instant now = clock.instant();
        Instant due = DueTime.of(at, now, settings.maxDelay());
        long queued = list(user).stream().filter(i -> InboxItem.QUEUED.equals(i.status())).count();
        if (queued >= settings.maxQueued()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, "you have " + queued
                    + " tasks waiting already (agentbus.inbox.max-queued); cancel one or wait for one to start");
        }
        InboxTask task = new InboxTask(UUID.randomUUID().toString(), user, cleanTitle, text, due, now, null);
        sender.sendRecord(Topics.INBOX.name(), task.id(), EventCodec.encodeValue(task));
        awaitView(task.id(), Optional::isPresent);
        return item(task);
    }

    /** The caller's tasks that wait or have started, the newest first. */
    List<InboxItem> list(String user) {
        return tasks.values().stream().filter(t -> user.equals(t.userId()))
                .sorted(Comparator.comparing(InboxTask::submittedAt).reversed())
                .map(this::item).toList();
    }

    /** Cancels a task that has not started: 404 when the caller has no such task, 409 when it has started. */
    void cancel(String user, String id) throws InterruptedException {
        InboxTask task = tasks.get(id).filter(t -> user.equals(t.userId()))
                .orElseThrow(() -> ApiException.notFound("no inbox task " + id));
        if (InboxItem.STARTED.equals(item(task).status())) {
            throw new ApiException(HttpStatus.CONFLICT, "inbox task " + id + " has started already, as session "
                    + id + "; cancel its turn instead");
        }
        // A task the scheduler starts in this very moment still starts: the session log decides, and the listing
        // follows it (InboxStarts writes the task back with its start).
        sender.sendRecord(Topics.INBOX.name(), id, null);
        awaitView(id, Optional::isEmpty);
    }

    private InboxItem item(InboxTask t) {
        Instant startedAt = t.startedAt() != null ? t.startedAt()
                : directory.state(t.id()).map(SessionState::createdAt).orElse(null);
        return startedAt == null
                ? new InboxItem(t.id(), t.title(), t.text(), t.at(), t.submittedAt(), InboxItem.QUEUED, null, null)
                : new InboxItem(t.id(), t.title(), t.text(), t.at(), t.submittedAt(), InboxItem.STARTED, t.id(),
                startedAt);
    }

    private void awaitView(String id, Predicate<Optional<InboxTask>> applied) throws InterruptedException {
        if (!tasks.awaitValue(id, applied, WAIT)) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
                    "the change is written but the gateway did not read it back within 10 s; list the inbox again");
        }
    }
}
