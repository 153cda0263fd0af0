package dev.agentbus.gateway.inbox;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.sessions.InputSender;
import dev.agentbus.gateway.sessions.SessionDirectory;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Copies the start of each inbox task from the session log to {@code agentbus.inbox} ({@code startedAt}), once a
 * second. The scheduler reads only the inbox topic; without this, it would send every task that ever started again
 * at each of its starts (harmless, since the orchestrator ignores them, but a cost that grows with the inbox). Two
 * gateway replicas write the same record: harmless too.
 */
@Context
@Requires(beans = CompactedTopicView.class) // not in a context without Kafka, such as the settings tests
final class InboxStarts {
    private static final Logger LOG = LoggerFactory.getLogger(InboxStarts.class);

    private final CompactedTopicView<InboxTask> tasks;
    private final SessionDirectory directory;
    private final InputSender sender;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("gateway-inbox-starts").factory());

    InboxStarts(CompactedTopicView<InboxTask> tasks, SessionDirectory directory, InputSender sender) {
        this.tasks = tasks;
        this.directory = directory;
        this.sender = sender;
        timer.scheduleWithFixedDelay(this::markStarted, 1, 1, TimeUnit.SECONDS);
    }

    private void markStarted() {
        try {
            Instant now = Instant.now();
            for (InboxTask t : tasks.values()) {
                if (t.startedAt() != null || t.at() == null || t.at().isAfter(now)) {
                    continue;
                }
                var session = directory.state(t.id());
                if (session.isPresent()) {
                    Instant createdAt = session.map(SessionState::createdAt).orElse(now);
                    sender.sendRecord(Topics.INBOX.name(), t.id(), EventCodec.encodeValue(t.started(createdAt)));
                }
            }
        } catch (RuntimeException e) {
            // Kafka away: the next round tries again; the scheduler's extra sends meanwhile are harmless.
            LOG.warn("inbox: could not mark started tasks: {}", e.toString());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
