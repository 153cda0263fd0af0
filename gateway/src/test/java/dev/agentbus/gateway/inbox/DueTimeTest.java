package dev.agentbus.gateway.inbox;

import dev.agentbus.gateway.errors.ApiException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When an inbox task is due, from the {@code at} a client sent, and which {@code at} is refused. */
class DueTimeTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Duration MAX = Duration.ofDays(365);

    @Test
    void no_time_means_now() {
        assertThat(DueTime.of(null, NOW, MAX)).isEqualTo(NOW);
        assertThat(DueTime.of("  ", NOW, MAX)).isEqualTo(NOW);
    }

    @Test
    void a_time_with_a_zone_or_an_offset_is_that_moment() {
        assertThat(DueTime.of("2026-11-25T12:30:00Z", NOW, MAX)).isEqualTo(Instant.parse("2026-11-25T12:30:00Z"));
        assertThat(DueTime.of("2026-11-25T13:30:00+01:00", NOW, MAX))
                .isEqualTo(Instant.parse("2026-11-25T12:30:00Z"));
    }

    @Test
    void a_time_a_few_seconds_ago_counts_as_now_because_clocks_differ() {
        assertThat(DueTime.of("2026-11-25T09:59:30Z", NOW, MAX)).isEqualTo(NOW);
    }

    @Test
    void a_time_further_in_the_past_is_refused() {
        assertThatThrownBy(() -> DueTime.of("2026-11-25T09:00:00Z", NOW, MAX))
                .isInstanceOf(ApiException.class).hasMessageContaining("is in the past");
    }

    @Test
    void a_time_beyond_the_limit_is_refused_with_the_limit() {
        assertThat(DueTime.of("2027-11-25T09:00:00Z", NOW, MAX)).isEqualTo(Instant.parse("2027-11-25T09:00:00Z"));
        assertThatThrownBy(() -> DueTime.of("2027-11-25T10:00:01Z", NOW, MAX))
                .isInstanceOf(ApiException.class).hasMessageContaining("too far ahead: at most 365 days");
    }

    @Test
    void a_time_without_a_zone_or_not_a_time_at_all_is_refused_with_an_example() {
        for (String at : new String[] {"2026-11-25T12:00:00", "tomorrow", "12:00", "2026-13-01T00:00:00Z"}) {
            assertThatThrownBy(() -> DueTime.of(at, NOW, MAX)).as(at)
                    .isInstanceOf(ApiException.class).hasMessageContaining("ISO-8601 time with a zone");
        }
    }
}
