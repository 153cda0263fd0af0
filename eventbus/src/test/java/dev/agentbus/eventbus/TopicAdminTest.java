package dev.agentbus.eventbus;

import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TopicAdminTest {
    @Test
    void compacted_topics_are_created_with_the_compact_cleanup_policy() {
        for (TopicSpec spec : new TopicSpec[] {Topics.USER_MEMORY, Topics.TOOL_LEDGER}) {
            NewTopic topic = TopicAdmin.newTopic(spec, 6);

            assertThat(topic.name()).isEqualTo(spec.name());
            assertThat(topic.configs())
                    .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)
                    .doesNotContainKey(TopicConfig.RETENTION_MS_CONFIG);
        }
    }

    @Test
    void the_stream_topic_keeps_records_for_one_hour() {
        NewTopic topic = TopicAdmin.newTopic(Topics.SESSION_STREAM, 6);

        assertThat(topic.configs())
                .containsEntry(TopicConfig.RETENTION_MS_CONFIG, "3600000")
                .doesNotContainKey(TopicConfig.CLEANUP_POLICY_CONFIG);
    }

    @Test
    void the_durable_logs_are_kept_forever() {
        assertThat(TopicAdmin.newTopic(Topics.SESSION_EVENTS, 6).configs())
                .containsEntry(TopicConfig.RETENTION_MS_CONFIG, "-1");
        assertThat(TopicAdmin.newTopic(Topics.SESSION_INPUTS, 6).configs())
                .containsEntry(TopicConfig.RETENTION_MS_CONFIG, "-1");
    }

    @Test
    void topics_with_a_limited_retention_get_it_in_milliseconds() {
        assertThat(TopicAdmin.newTopic(Topics.MEMORY_COMMANDS, 6).configs())
                .containsEntry(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(7).toMillis()));
        assertThat(TopicAdmin.newTopic(Topics.DEAD_LETTER, 6).configs())
                .containsEntry(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(30).toMillis()));
    }

    @Test
    void session_topics_get_the_requested_partition_count_so_they_stay_co_partitioned() {
        for (TopicSpec spec : Topics.SESSION_PARTITIONED) {
            assertThat(TopicAdmin.newTopic(spec, 12).numPartitions()).as(spec.name()).isEqualTo(12);
            assertThat(TopicAdmin.newTopic(spec, 1).numPartitions()).as(spec.name()).isEqualTo(1);
        }
    }

    @Test
    void the_other_topics_get_at_most_three_partitions_and_at_least_one() {
        for (TopicSpec spec : Topics.ALL) {
            if (Topics.SESSION_PARTITIONED.contains(spec)) {
                continue;
            }
            assertThat(TopicAdmin.newTopic(spec, 12).numPartitions()).as(spec.name()).isEqualTo(3);
            assertThat(TopicAdmin.newTopic(spec, 2).numPartitions()).as(spec.name()).isEqualTo(2);
            assertThat(TopicAdmin.newTopic(spec, 0).numPartitions()).as(spec.name()).isEqualTo(1);
        }
    }
}
