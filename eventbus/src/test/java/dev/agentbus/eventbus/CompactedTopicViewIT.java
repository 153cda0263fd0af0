package dev.agentbus.eventbus;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The view a writer waits on for its own change: woken by the record that makes it true, or timed out. */
class CompactedTopicViewIT {
    @TempDir
    Path dir;

    @Test
    void a_waiter_wakes_when_the_view_reads_the_value_it_waits_for_and_times_out_otherwise() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build()) {
            broker.start();
            KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 1, "0");
            try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers",
                    broker.bootstrapServers()))) {
                admin.createTopics(java.util.List.of(new org.apache.kafka.clients.admin.NewTopic("view-test", 1,
                        (short) 1))).all().get();
            }
            try (var view = new CompactedTopicView<>(kafka, "view-test", "view-test",
                    bytes -> new String(bytes, StandardCharsets.UTF_8)).start();
                 var producer = new KafkaProducer<String, String>(Map.of(
                         ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                         ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                         ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                assertThat(view.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();

                // given a waiter for a value nobody has written yet
                CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> await(view, "k",
                        v -> v.filter("two"::equals).isPresent(), Duration.ofSeconds(30)));
                // when the first value, then the one it waits for, are written
                producer.send(new ProducerRecord<>("view-test", "k", "one")).get();
                producer.send(new ProducerRecord<>("view-test", "k", "two")).get();
                // then it wakes with the view showing that value
                assertThat(second.get()).isTrue();
                assertThat(view.get("k")).contains("two");

                // a tombstone removes the key, and a waiter for its absence sees that
                producer.send(new ProducerRecord<>("view-test", "k", null)).get();
                assertThat(view.awaitValue("k", Optional::isEmpty, Duration.ofSeconds(30))).isTrue();
                // a value that never comes: false once the time is up, not an exception
                assertThat(view.awaitValue("never", Optional::isPresent, Duration.ofMillis(200))).isFalse();
            }
        }
    }

    private static boolean await(CompactedTopicView<String> view, String key,
                                 java.util.function.Predicate<Optional<String>> until, Duration timeout) {
        try {
            return view.awaitValue(key, until, timeout);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
