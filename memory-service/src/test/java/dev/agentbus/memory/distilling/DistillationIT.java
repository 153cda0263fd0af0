package dev.agentbus.memory.distilling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Records;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.testkit.model.ScriptedModelServer;
import io.micronaut.context.ApplicationContext;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memory-service against a real broker and the scripted model server: completed turns on the session log become
 * insights with their sources, a malformed answer is skipped, and a restarted service asks about no turn twice.
 */
class DistillationIT {
    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static KafkaSettings kafka;
    static ScriptedModelServer model;
    static KafkaProducer<String, byte[]> producer;

    @BeforeAll
    static void start() {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        kafka = new KafkaSettings(broker.bootstrapServers(), 2, "0");
        TopicAdmin.ensureTopics(kafka);
        model = ScriptedModelServer.start();
        producer = new KafkaProducer<>(kafka.producer("test-orchestrator"));
    }

    @AfterAll
    static void stop() {
        producer.close();
        model.close();
        broker.close();
    }

    private static ApplicationContext memoryService() {
        return ApplicationContext.builder().properties(Map.of(
                "agentbus.service", MemoryServiceApplication.SERVICE,
                "agentbus.kafka.bootstrap-servers", broker.bootstrapServers(),
                "agentbus.kafka.partitions", 2,
                "agentbus.memory.distill.enabled", true,
                "llm.url", model.baseUrl(),
                "llm.model", model.modelName())).start();
    }

    /** Writes events as the orchestrator would, one session's seqs in order. */
    private static void log(String session, long seq, SessionEvent event) throws Exception {
        EventEnvelope e = new EventEnvelope(UUID.randomUUID().toString(), session, seq, Instant.now(), null, "alice",
                event);
        producer.send(Records.event(e, "test", TraceHeaders.newTrace())).get();
    }

    private static void turn(String session, long firstSeq, String said, String answered) throws Exception {
        log(session, firstSeq, new SessionEvent.UserMessagePosted(said));
        log(session, firstSeq + 1, new SessionEvent.ModelCallCompleted("r" + firstSeq, "m", answered, null,
                List.of(), null, "stop"));
        log(session, firstSeq + 2, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, answered, null));
    }

    private static InsightSet awaitInsights(Predicate<InsightSet> until) throws Exception {
        try (var view = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "test-view-" + UUID.randomUUID(),
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class)).start()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < deadline) {
                var set = view.get("alice");
                if (set.isPresent() && until.test(set.get())) {
                    return set.get();
                }
                Thread.sleep(50);
            }
            throw new AssertionError("insights of alice did not get there within 60 s: " + view.get("alice"));
        }
    }

    @Test
    void completed_turns_become_insights_with_their_sources_once_even_across_a_restart() throws Exception {
        model.replyText("""
                {"insights": [{"category": "preference", "text": "prefers tabs over spaces", "confidence": 0.8},
                              {"category": "hobby", "text": "plays chess", "confidence": 0.9}]}""");
        model.replyText("I think the user likes Kafka.");
        log("s1", 1, new SessionEvent.SessionCreated("memory", PermissionMode.NORMAL));
        turn("s1", 2, "Please always indent with tabs.", "Sure, tabs it is.");
        turn("s1", 5, "What time is it?", "Noon.");
        // A cancelled turn is not distilled.
        log("s1", 8, new SessionEvent.UserMessagePosted("never mind"));
        log("s1", 9, new SessionEvent.TurnEnded(TurnOutcome.CANCELLED, null, null));

        InsightSet set;
        try (ApplicationContext ignored = memoryService()) {
            set = awaitInsights(s -> s.distilled("s1", 7));
        }

        assertThat(model.requestCount()).as("one extraction per completed turn").isEqualTo(2);
        JsonNode firstAsk = model.requests().getFirst();
        assertThat(firstAsk.toString()).contains("Please always indent with tabs.").contains("Sure, tabs it is.")
                .contains("\\\"insights\\\"");
        assertThat(set.insights()).as("the malformed answer and the unknown category added nothing")
                .singleElement().satisfies(i -> {
                    assertThat(i.category()).isEqualTo(InsightCategory.PREFERENCE);
                    assertThat(i.text()).isEqualTo("prefers tabs over spaces");
                    assertThat(i.confidence()).isEqualTo(0.8);
                    assertThat(i.sources()).containsExactly(new InsightSource("s1", List.of(2L, 3L, 4L)));
                });
        assertThat(set.distilledUpTo()).containsEntry("s1", 7L);

        // Restarted: the whole log is read again, but only the new turn goes to the model.
        model.replyText("{\"insights\": [{\"category\": \"identity\", \"text\": \"is called Ada\", \"confidence\": 1}]}");
        try (ApplicationContext ignored = memoryService()) {
            turn("s1", 10, "I'm Ada, by the way.", "Nice to meet you, Ada.");
            set = awaitInsights(s -> s.distilled("s1", 12));
            assertThat(model.requestCount()).as("turns distilled before the restart are not asked again").isEqualTo(3);
            assertThat(set.insights()).extracting(Insight::text)
                    .containsExactlyInAnyOrder("prefers tabs over spaces", "is called Ada");

            // A person's change goes through the same single writer.
            String tabs = set.insights().stream().filter(i -> i.category() == InsightCategory.PREFERENCE)
                    .findFirst().orElseThrow().id();
            var pin = new InsightCommand.EditInsight("edit-1", "alice", tabs, null, null, true);
            producer.send(new ProducerRecord<>(Topics.INSIGHT_COMMANDS.name(), "alice", EventCodec.encodeValue(pin)))
                    .get();
            set = awaitInsights(s -> "edit-1".equals(s.lastCommandId()));
            assertThat(set.find(tabs).orElseThrow().pinned()).isTrue();
        }
        assertThat(model.requestCount()).isEqualTo(3);
    }
}
