package dev.agentbus.gateway.insights;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.InsightSource;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.Partitions;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.readmodels.TestGateway;
import io.micronaut.context.ApplicationContext;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The insight routes against a real broker and a real gateway application context. The memory-service is played by
 * {@link FakeInsightKeeper} on the real topics (the gateway module may not depend on it; the real keeper's rules are
 * tested in the memory-service): it applies the commands the gateway sends and writes the new sets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InsightsControllerIT {
    private static final String TOKEN = TestGateway.TOKEN;
    /** The user the gateway token acts as. */
    private static final String ME = "local";
    private static final Instant SEEN = Instant.parse("2026-11-01T00:00:00Z");

    private EmbeddedKafkaBroker broker;
    private ApplicationContext gateway;
    private FakeInsightKeeper keeper;
    private String url;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start(@TempDir Path dir) {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 3, "insights-test");
        TopicAdmin.ensureTopics(kafka);
        keeper = new FakeInsightKeeper(kafka);
        // The gateway as TestGateway starts it (its own token), with this test's limits.
        TestGateway started = new TestGateway(broker.bootstrapServers(), dir.resolve("data"), null,
                Map.of());
        gateway = started.context();
        url = started.url();
    }

    @AfterAll
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (keeper != null) {
            keeper.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Insight insight(String id, InsightCategory category, String text, double confidence) {
        return new Insight(id, category, text, confidence, List.of(new InsightSource("s1", List.of(2L, 3L, 4L))),
                SEEN, SEEN, 0, 0, 0, false, false, false, Insight.Origin.DISTILLED);
    }

    @BeforeEach
    void seed() throws Exception {
        keeper.seed(ME, List.of(insight("i-tabs", InsightCategory.PREFERENCE, "prefers tabs over spaces", 0.8),
                insight("i-name", InsightCategory.IDENTITY, "is called Ada", 1.0)));
        keeper.seed("someone-else", List.of(insight("i-theirs", InsightCategory.SKILL, "knows Kafka", 0.9)));
        String seeded = keeper.lastSeed(ME);
        long deadline = System.currentTimeMillis() + 20_000;
        while (!seeded.equals(gateway.getBean(UserInsights.class).get(ME).lastCommandId())) {
            assertThat(System.currentTimeMillis()).as("the gateway sees the seeded set").isLessThan(deadline);
            Thread.sleep(20);
        }
        keeper.commands.clear();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).header("Authorization",
                "Bearer " + TOKEN);
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.mapper().readTree(r.body());
    }

    @Test
    void the_list_has_the_callers_insights_best_first_with_score_and_sources() throws Exception {
        HttpResponse<String> r = send("GET", "/api/v1/memory/insights", null);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode list = json(r);
        assertThat(list.path("userId").asText()).isEqualTo(ME);
        assertThat(list.path("insights")).hasSize(2);
        JsonNode first = list.path("insights").get(0);
        assertThat(first.path("id").asText()).as("identity decays slowest, so it ranks first").isEqualTo("i-name");
        assertThat(first.path("category").asText()).isEqualTo("identity");
        assertThat(first.path("score").asDouble()).isBetween(0.0, 1.0);
        assertThat(first.path("sources").toString()).isEqualTo("[{\"sessionId\":\"s1\",\"seqs\":[2,3,4]}]");
        assertThat(list.path("insights").get(1).path("category").asText()).isEqualTo("preference");
        assertThat(r.body()).doesNotContain("knows Kafka");
    }

    @Test
    void an_edit_is_a_command_answered_with_the_new_version() throws Exception {
        HttpResponse<String> pinned = send("PUT", "/api/v1/memory/insights/i-tabs", "{\"pinned\": true}");
        assertThat(pinned.statusCode()).as(pinned.body()).isEqualTo(200);
        assertThat(json(pinned).path("pinned").asBoolean()).isTrue();
        assertThat(json(pinned).path("text").asText()).isEqualTo("prefers tabs over spaces");

        HttpResponse<String> edited = send("PUT", "/api/v1/memory/insights/i-tabs",
                "{\"text\": \"prefers 4-wide tabs\", \"disabled\": true}");
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        assertThat(json(edited).path("text").asText()).isEqualTo("prefers 4-wide tabs");
        assertThat(json(edited).path("disabled").asBoolean()).isTrue();
        assertThat(json(edited).path("score").asDouble()).as("disabled").isZero();

        HttpResponse<String> guarded = send("PUT", "/api/v1/memory/insights/i-tabs", "{\"protected\": true}");
        assertThat(guarded.statusCode()).as(guarded.body()).isEqualTo(200);
        assertThat(json(guarded).path("protected").asBoolean()).isTrue();

        assertThat(keeper.commands).containsExactly(
                new InsightCommand.EditInsight(keeper.commands.get(0).commandId(), ME, "i-tabs", null, null, true),
                new InsightCommand.EditInsight(keeper.commands.get(1).commandId(), ME, "i-tabs",
                        "prefers 4-wide tabs", true, null),
                new InsightCommand.EditInsight(keeper.commands.get(2).commandId(), ME, "i-tabs", null, null, null,
                        true));
        assertThat(send("GET", "/api/v1/memory/insights", null).body()).contains("prefers 4-wide tabs");
    }

    @Test
    void one_insight_is_deleted_and_then_all_are_cleared() throws Exception {
        HttpResponse<String> deleted = send("DELETE", "/api/v1/memory/insights/i-tabs", null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(json(deleted).path("insights").findValuesAsText("id")).containsExactly("i-name");

        HttpResponse<String> cleared = send("DELETE", "/api/v1/memory/insights", null);
        assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
        assertThat(json(cleared).path("insights")).isEmpty();
        assertThat(json(send("GET", "/api/v1/memory/insights", null)).path("insights")).isEmpty();
        assertThat(keeper.sets.get("someone-else").insights()).as("only the caller's").hasSize(1);
    }

    @Test
    void another_users_insight_is_404_like_a_missing_one_and_nothing_is_sent() throws Exception {
        for (String method : List.of("PUT", "DELETE")) {
            HttpResponse<String> theirs = send(method, "/api/v1/memory/insights/i-theirs",
                    method.equals("PUT") ? "{\"pinned\": true}" : null);
            HttpResponse<String> missing = send(method, "/api/v1/memory/insights/i-nothing",
                    method.equals("PUT") ? "{\"pinned\": true}" : null);
            assertThat(theirs.statusCode()).isEqualTo(404);
            assertThat(json(theirs).path("message").asText()).isEqualTo("no insight i-theirs");
            assertThat(missing.statusCode()).isEqualTo(404);
        }
        assertThat(keeper.commands).isEmpty();
    }

    @Test
    void bad_input_is_400_with_a_json_message_and_nothing_is_sent() throws Exception {
        String path = "/api/v1/memory/insights/i-tabs";
        HttpResponse<String> empty = send("PUT", path, "{}");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(json(empty).path("message").asText()).isEqualTo("nothing to change: give text, disabled, pinned or protected");
        HttpResponse<String> blank = send("PUT", path, "{\"text\": \"  \"}");
        assertThat(blank.statusCode()).isEqualTo(400);
        assertThat(json(blank).path("message").asText()).startsWith("text must not be blank");
        HttpResponse<String> tooLong = send("PUT", path, "{\"text\": \"" + "x".repeat(501) + "\"}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong).path("message").asText()).isEqualTo("text is longer than 500 characters");
        HttpResponse<String> notJson = send("PUT", path, "{\"pinned\": ");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(json(notJson).has("message")).isTrue();
        HttpResponse<String> wrongType = send("PUT", path, "{\"pinned\": \"very\"}");
        assertThat(wrongType.statusCode()).isEqualTo(400);
        assertThat(keeper.commands).isEmpty();
    }

    /** Plays the memory-service's insight keeper: applies each command and writes the user's next set. */
    static final class FakeInsightKeeper implements AutoCloseable {
        final List<InsightCommand> commands = new CopyOnWriteArrayList<>();
        final Map<String, InsightSet> sets = new ConcurrentHashMap<>();
        private final Map<String, String> seeds = new ConcurrentHashMap<>();
        private final KafkaProducer<String, byte[]> producer;
        private final ServiceLoop loop;

        FakeInsightKeeper(KafkaSettings kafka) {
            producer = new KafkaProducer<>(kafka.producer("fake-insight-keeper"));
            loop = new ServiceLoop("fake-insight-keeper", l -> Partitions.follow(l, kafka, "fake-insight-keeper",
                    Topics.INSIGHT_COMMANDS.name(), false, r -> apply(EventCodec.decodeValue(r.value(),
                            InsightCommand.class)), () -> { })).start();
        }

        void seed(String user, List<Insight> insights) throws Exception {
            String id = "seed-" + UUID.randomUUID();
            seeds.put(user, id);
            write(new InsightSet(user, version(user) + 1, insights, Map.of("s1", 4L), Instant.now(), id));
        }

        String lastSeed(String user) {
            return seeds.get(user);
        }

        private long version(String user) {
            return sets.containsKey(user) ? sets.get(user).version() : 0;
        }

        private void apply(InsightCommand command) {
            commands.add(command);
            InsightSet current = sets.getOrDefault(command.userId(), InsightSet.empty(command.userId()));
            List<Insight> insights = new ArrayList<>(current.insights());
            switch (command) {
                case InsightCommand.EditInsight e -> insights.replaceAll(i -> !i.id().equals(e.insightId()) ? i
                        : (e.text() == null ? i : i.rewrittenBy(Insight.Origin.PERSON, e.text(), 1, Instant.now()))
                        .withFlags(e.disabled() == null ? i.disabled() : e.disabled(),
                        e.pinned() == null ? i.pinned() : e.pinned()).withProtected(
                        e.isProtected() == null ? i.isProtected() : e.isProtected()));
                case InsightCommand.DeleteInsight d -> insights.removeIf(i -> i.id().equals(d.insightId()));
                case InsightCommand.ClearInsights c -> insights.clear();
                default -> {
                    // Only the memory-service writes the others; this stand-in keeper sees a person's changes.
                }
            }
            try {
                write(new InsightSet(command.userId(), current.version() + 1, insights, current.distilledUpTo(),
                        Instant.now(), command.commandId()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        private void write(InsightSet set) throws Exception {
            producer.send(new ProducerRecord<>(Topics.USER_INSIGHTS.name(), set.userId(),
                    EventCodec.encodeValue(set))).get();
            sets.put(set.userId(), set);
        }

        @Override
        public void close() {
            loop.close();
            producer.close(Duration.ofSeconds(2));
        }
    }
}
