package dev.agentbus.gateway.insights;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.context.annotation.Context;
import io.micronaut.http.HttpStatus;
import jakarta.annotation.PreDestroy;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A user's insights as the memory-service keeps them. Reads follow the compacted {@code agentbus.user-insights};
 * changes go to the memory-service as commands on {@code agentbus.insight-commands} (the gateway never writes the
 * insight sets: the memory-service is their single writer) and are answered once the version the command produced
 * appears, so a read right after sees it — as {@code UserMemory} does for the memory document.
 */
@Context
class UserInsights {
    private static final java.time.Duration WAIT = java.time.Duration.ofSeconds(10);

    private final CompactedTopicView<InsightSet> view;
    private final KafkaProducer<String, byte[]> producer;

    UserInsights(KafkaSettings kafka) {
        this.view = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "gateway-insights",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class)).start();
        this.producer = new KafkaProducer<>(kafka.producer("gateway-insights"));
    }

    InsightSet get(String user) {
        return view.get(user).orElse(InsightSet.empty(user));
    }

    /** The caller's insight, or 404: another user's id is answered exactly as one that does not exist. */
    Insight find(String user, String insightId) {
        return get(user).find(insightId).orElseThrow(() -> ApiException.notFound("no insight " + insightId));
    }

    InsightSet edit(String user, String insightId, String text, Boolean disabled, Boolean pinned,
                    Boolean isProtected) throws InterruptedException {
        find(user, insightId);
        return send(new InsightCommand.EditInsight(newId(), user, insightId, text, disabled, pinned, isProtected));
    }

    /**
     * Asks the memory-service to rebuild the insights of {@code user} (or of every user, {@code null}) from the
     * whole log; answered at once with the rebuild's id, since a rebuild asks the model about every turn.
     */
    String requestRebuild(String user, String requestedBy) {
        String id = newId();
        var command = new InsightCommand.RequestRebuild(id,
                user == null ? InsightCommand.RequestRebuild.ALL_USERS : user, requestedBy);
        var record = new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), command.userId(),
                EventCodec.encodeValue(command));
        TraceHeaders.inject(TraceHeaders.newTrace(), record.headers());
        try {
            producer.send(record).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Kafka did not accept the request: "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "interrupted");
        }
        return id;
    }

    /** The users whose insights the rebuild {@code rebuildId} replaced so far, with their new version. */
    java.util.Map<String, Long> rebuilt(String rebuildId) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (InsightSet set : view.values()) {
            if (rebuildId.equals(set.lastRebuildId())) {
                out.put(set.userId(), set.version());
            }
        }
        return out;
    }

    InsightSet delete(String user, String insightId) throws InterruptedException {
        find(user, insightId);
        return send(new InsightCommand.DeleteInsight(newId(), user, insightId));
    }

    /** Asks the memory-service to have the model merge the user's duplicate and conflicting insights. */
    InsightCommand.RequestRefinement requestRefinement(String user) throws InterruptedException {
        var request = new InsightCommand.RequestRefinement(newId(), user);
        publish(request);
        return request;
    }

    /** The set once the refinement's result was applied, or empty after {@code waitMs}. */
    java.util.Optional<InsightSet> awaitRefined(InsightCommand.RequestRefinement request, long waitMs)
            throws InterruptedException {
        if (view.awaitValue(request.userId(), set -> set.isPresent()
                && request.resultId().equals(set.get().lastCommandId()), java.time.Duration.ofMillis(waitMs))) {
            return view.get(request.userId());
        }
        return java.util.Optional.empty();
    }

    InsightSet clear(String user) throws InterruptedException {
        return send(new InsightCommand.ClearInsights(newId(), user));
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    private InsightSet send(InsightCommand command) throws InterruptedException {
        publish(command);
        return awaitApplied(command.userId(), command.commandId(), WAIT,
                "the memory-service did not apply the change within 10 s; it is queued and will apply when it runs");
    }

    private void publish(InsightCommand command) throws InterruptedException {
        var record = new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), command.userId(),
                EventCodec.encodeValue(command));
        TraceHeaders.inject(TraceHeaders.newTrace(), record.headers());
        try {
            producer.send(record).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Kafka did not accept the change: "
                    + e.getMessage());
        }
    }

    private InsightSet awaitApplied(String user, String commandId, java.time.Duration wait, String late)
            throws InterruptedException {
        if (view.awaitValue(user, set -> set.isPresent() && commandId.equals(set.get().lastCommandId()), wait)) {
            return view.get(user).orElseThrow();
        }
        throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, late);
    }

    @PreDestroy
    void close() {
        view.close();
        producer.close(Duration.ofSeconds(2));
    }
}
