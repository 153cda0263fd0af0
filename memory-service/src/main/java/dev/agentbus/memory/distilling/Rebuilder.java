package dev.agentbus.memory.distilling;

import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.modelclient.ModelCallException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Rebuilds users' insights from the whole session log when an administrator asks
 * ({@code insights.rebuild_requested.v1} on {@code agentbus.insight-commands}): it reads the log from its first
 * offset to where it ends at that moment, collects every completed turn of the user (or of every user) as live
 * distillation does — incognito sessions skipped — and hands each user's turns to {@link MemoryRebuild}. Each
 * user's new set is one command to the insight keeper, which swaps it in in one version: a reader sees the old set
 * or the new one, never a mix, and a rebuild that fails part-way sends nothing for that user.
 *
 * <p>It also answers a person's request to refine their insights ({@link Refiner}): both are requests on the
 * commands topic that need the model server, handled one at a time in the order asked.
 *
 * <p>It has its own consumer group on the commands topic and commits a request once it was handled (done or
 * failed): a rebuild is never retried in a loop; one interrupted by a crash runs again at the next start.
 */
final class Rebuilder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuilder.class);
    static final String GROUP = "agentbus-memory-rebuilder";

    private final KafkaSettings kafka;
    private final Extractor extractor;
    private final int concurrency;
    private final Refiner refiner;
    private final KafkaProducer<String, byte[]> producer;
    private final ServiceLoop loop;

    Rebuilder(KafkaSettings kafka, Extractor extractor, int concurrency, Refiner refiner) {
        this.kafka = kafka;
        this.refiner = refiner;
        this.extractor = extractor;
        this.concurrency = concurrency;
        this.producer = new KafkaProducer<>(kafka.producer("memory-rebuilder"));
        this.loop = new ServiceLoop("memory-rebuilder", this::follow);
    }

    void start() {
        loop.start();
    }

    private void follow(ServiceLoop loop) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumer(GROUP, "memory-rebuilder"))) {
            loop.wakeOnClose(consumer);
            consumer.subscribe(List.of(Topics.INSIGHT_COMMANDS.name()));
            while (loop.running()) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, byte[]> r : records) {
                    InsightCommand command;
                    try {
                        command = EventCodec.decodeValue(r.value(), InsightCommand.class);
                    } catch (RuntimeException e) {
                        continue; // The keeper dead-letters it; nothing here to rebuild.
                    }
                    if (command instanceof InsightCommand.RequestRebuild request) {
                        rebuild(request, r);
                    } else if (command instanceof InsightCommand.RequestRefinement request) {
                        try {
                            send(refiner.refine(request), r);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
            }
        }
    }

    private void rebuild(InsightCommand.RequestRebuild request, ConsumerRecord<String, byte[]> r) {
        long started = System.nanoTime();
        Map<String, List<CompletedTurn>> turns = completedTurns(request);
        LOG.info("rebuild {} requested by {}: {} users, {} completed turns to distil again", request.commandId(),
                request.requestedBy(), turns.size(), turns.values().stream().mapToInt(List::size).sum());
        for (Map.Entry<String, List<CompletedTurn>> user : turns.entrySet()) {
            InsightCommand.ReplaceDistilled result;
            try {
                result = MemoryRebuild.of(request.commandId(), user.getKey(), user.getValue(), extractor, concurrency);
            } catch (ModelCallException e) {
                LOG.warn("rebuild {} of user {} failed, the old insights stay: {}", request.commandId(),
                        user.getKey(), e.getMessage());
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            send(result, r);
            LOG.info("rebuild {} of user {}: {} insights from {} turns", request.commandId(), user.getKey(),
                    result.insights().size(), user.getValue().size());
        }
        LOG.info("rebuild {} done in {} ms", request.commandId(), (System.nanoTime() - started) / 1_000_000);
    }

    /** The completed turns of the log as it is now, by user, oldest first; an unreadable event is skipped. */
    Map<String, List<CompletedTurn>> completedTurns(InsightCommand.RequestRebuild request) {
        Map<String, List<CompletedTurn>> byUser = new LinkedHashMap<>();
        TurnCollector collector = new TurnCollector();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumer(null, "memory-rebuild-log"))) {
            List<TopicPartition> partitions = Partitions.assignAll(consumer, Topics.SESSION_EVENTS.name(), true);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    EventEnvelope e;
                    try {
                        e = EventCodec.decodeEvent(record.value());
                    } catch (RuntimeException ex) {
                        continue;
                    }
                    collector.apply(e).filter(t -> t.userId() != null)
                            .filter(t -> request.allUsers() || request.userId().equals(t.userId()))
                            .ifPresent(t -> byUser.computeIfAbsent(t.userId(), u -> new ArrayList<>()).add(t));
                }
            }
        }
        return byUser;
    }

    private void send(InsightCommand command, ConsumerRecord<String, byte[]> cause) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), command.userId(),
                EventCodec.encodeValue(command));
        TraceHeaders.inject(TraceHeaders.continueFrom(cause.headers()), record.headers());
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("could not send the rebuilt insights of " + command.userId(), ex);
        }
    }

    @Override
    public void close() {
        loop.close();
        refiner.close();
        producer.close(Duration.ofSeconds(2));
    }
}
